/**
 * The json report: a machine-readable certificate of one run. Its shape is documented in docs/report-json.md
 * and versioned by `formatVersion`: fields are only ever added within a version.
 */
import type { RecordedExchange } from '../client/types.js';
import { resultKey } from '../engine/result-key.js';
import { readNamedFile } from '../engine/baseline.js';
import { dependencyEdges, findRootCauses } from '../engine/root-causes.js';
import type { BaselineOutcome, CheckResult, RootCause, RunHeader, RunSummary, RunTotals, UniformAnswer, Verdict } from '../engine/types.js';
import { HarnessError, type HarnessErrorCode } from '../errors.js';
import type { AttestSubjectRequest } from './context.js';

export const REPORT_FORMAT = 'access-conformance-report';
/**
 * 2: `totals` is the run's one set of counts (engine/counts.ts): `failed` counts only the failures that fail
 * the run, with `warnings` and `observations` beside it (in 1, `failed` counted every failed check).
 */
export const REPORT_FORMAT_VERSION = 2;
/** Versions diff and --baseline read: their `results` have the same shape. */
const READABLE_VERSIONS: readonly number[] = [1, 2];

/**
 * One check as the report carries it: the engine's result, except that exchanges are kept only where they
 * explain something (failed and errored checks), so a passing run's certificate stays small.
 */
export type JsonCheckResult = Omit<CheckResult, 'exchanges'> & {
  /** Failed and errored checks of a CLI run: the command that reruns just this check (reporters/rerun.ts). */
  rerun?: string;
  /**
   * Failed and errored checks: the command that sends the decisive request again, signed anew, and the
   * file it reads (reporters/reproductions.ts); or why there is none.
   */
  reproduction?: { command: string; file: string } | { unavailable: string };
  /** Only for failed and errored checks: the exchanges that showed it (redacted). */
  exchanges?: RecordedExchange[];
  /** The not-passing check this one follows from (its control or prerequisite): one dependency edge. */
  dependsOn?: string;
  /** The root cause it is grouped under. */
  rootCause?: string;
};

export interface JsonReport {
  format: typeof REPORT_FORMAT;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  tool: RunHeader['tool'];
  catalogueVersion: string;
  profile: { name: string };
  target: { baseUrl: string; description?: string };
  seed: string;
  date: string;
  durationMs: number;
  selection: RunHeader['selection'];
  strict: boolean;
  settings: RunHeader['settings'];
  capabilities: RunHeader['capabilities'];
  notes: string[];
  /** The run's operations (ruling 34): the description read, the operations called, and each never called with why. */
  operations?: RunHeader['operations'];
  results: JsonCheckResult[];
  totals: RunTotals;
  /** `code`: the harness error that stopped a run early (then `status` is "error"). */
  verdict: Verdict & { code?: HarnessErrorCode };
  warnings: string[];
  baseline?: BaselineOutcome;
  harnessErrors: RunSummary['harnessErrors'];
  /** Present when the run stopped before its end (signal, deadline, unreachable target). */
  aborted?: NonNullable<RunSummary['aborted']>;
  /** Root causes first, each with its dependants (the `dependsOn` edges of the results lead to them). */
  rootCauses?: RootCause[];
  /** Present when nearly every request got one answer (then the verdict's code is UNIFORM_ANSWER). */
  uniformAnswer?: UniformAnswer;
  /** Present when the run moved the target's clock forward (the hook has no way back). */
  clockMoved?: NonNullable<RunSummary['clockMoved']>;
  /**
   * The part of the description the run certifies (`run --partial`, the profile's `"scope"`): the operations
   * checked as implemented, and each not implemented with why. Absent: the run certifies every operation.
   */
  scope?: NonNullable<RunSummary['scope']>;
  /** Operations whose valid call got the same 404 or 501, grouped as one root cause (their results stay in `results`). */
  absentOperations?: NonNullable<RunSummary['absentOperations']>;
  /** `run --attest`: what the signed attestation beside this file certifies, said plainly (docs/certify.md). */
  attestation?: ReportAttestation;
}

export interface ReportAttestation {
  /** The in-toto subject of the statement: a name and the SHA-256 digest it is bound to. */
  subject: { name: string; digest: { sha256?: string } };
  /** Where the subject came from: `--image`'s digest, `--subject`, or the OpenAPI description's digest. */
  from: 'image' | 'subject' | 'description';
  note: string;
}

/**
 * The subject of `run --attest` as the report states it. Without --subject or --image it is the run's
 * OpenAPI description (its digest, read by the run) under the profile's baseUrl; a run with no description
 * leaves the digest out and the attestation step refuses to sign (the CLI checks that before the run).
 */
export function reportAttestation(request: AttestSubjectRequest, header: RunHeader): ReportAttestation {
  if (request.from !== 'description') {
    const what = request.from === 'image' ? 'the container image checked (--image), by its digest' : 'the build named by --subject';
    return { subject: { name: request.name, digest: { sha256: request.sha256 } }, from: request.from, note: `The attestation certifies ${what}.` };
  }
  const sha256 = header.operations?.description?.sha256;
  return {
    subject: { name: request.name, digest: sha256 === undefined ? {} : { sha256 } },
    from: 'description',
    note:
      'Neither --subject nor --image was given: the attestation certifies the deployment at the profile\'s baseUrl as its OpenAPI description describes it (the digest is the description\'s, as the run read it), not a build. Give --subject NAME@sha256:HEX to name the build or release.',
  };
}

export function toJsonReport(summary: RunSummary): JsonReport {
  const { header } = summary;
  const rootCauses = summary.rootCauses ?? findRootCauses(summary.results);
  const edges = dependencyEdges(summary.results);
  const rootOf = new Map(rootCauses.flatMap((cause) => cause.dependants.map((id) => [id, cause.id] as const)));
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    tool: header.tool,
    catalogueVersion: header.catalogueVersion,
    profile: { name: header.profileName },
    target: { baseUrl: header.target, ...(header.targetDescription ? { description: header.targetDescription } : {}) },
    seed: header.seed,
    date: header.date,
    durationMs: summary.durationMs,
    selection: header.selection,
    strict: header.strict,
    settings: header.settings,
    capabilities: header.capabilities,
    notes: header.notes,
    ...(header.operations ? { operations: header.operations } : {}),
    results: summary.results.map((r) => ({
      // Key order is the reading order: identity, outcome, then detail.
      id: r.id,
      ...(r.operation ? { operation: r.operation } : {}),
      level: r.level,
      group: r.group,
      section: r.section,
      ...(r.ruling === undefined ? {} : { ruling: r.ruling }),
      ...(r.authority === undefined ? {} : { authority: r.authority }),
      text: r.text,
      state: r.state,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
      ...(r.failure === undefined ? {} : { failure: r.failure }),
      ...(r.harnessError === undefined ? {} : { harnessError: r.harnessError }),
      ...(r.expectedFailure ? { expectedFailure: true } : {}),
      ...(r.blockedBy === undefined ? {} : { blockedBy: r.blockedBy }),
      ...(r.pulledIn === undefined ? {} : { pulledIn: r.pulledIn }),
      ...(r.notImplemented === undefined ? {} : { notImplemented: r.notImplemented }),
      ...(edges.has(resultKey(r)) ? { dependsOn: edges.get(resultKey(r))! } : {}),
      ...(rootOf.has(resultKey(r)) ? { rootCause: rootOf.get(resultKey(r))! } : {}),
      observations: r.observations,
      durationMs: r.durationMs,
      phase: r.phase,
      // The recipes go to <out>/reproductions/ (reproductions.ts), not into every exchange here.
      ...(r.state === 'failed' || r.state === 'errored' || r.state === 'blocked' ? { exchanges: r.exchanges.map(({ replay: _replay, ...exchange }) => exchange) } : {}),
    })),
    totals: summary.totals,
    // A run that stopped early decided nothing about conformance (the engine's abortedVerdict): the code says why.
    verdict: summary.aborted ? { ...summary.verdict, code: summary.aborted.code } : summary.verdict,
    warnings: summary.warnings,
    ...(summary.baseline ? { baseline: summary.baseline } : {}),
    harnessErrors: summary.harnessErrors,
    ...(summary.aborted ? { aborted: summary.aborted } : {}),
    rootCauses,
    ...(summary.uniformAnswer ? { uniformAnswer: summary.uniformAnswer } : {}),
    ...(summary.clockMoved ? { clockMoved: summary.clockMoved } : {}),
    ...(summary.scope ? { scope: summary.scope } : {}),
    ...(summary.absentOperations ? { absentOperations: summary.absentOperations } : {}),
  };
}

function invalid(path: string, why: string): HarnessError {
  return new HarnessError('REPORT_INVALID', `${path} is not an access-conformance json report: ${why}`, {
    hint: 'pass files written by `run --reporter json` (report.json in the --out folder)',
  });
}

/** Reads and checks a json report (the parts diff and baselines rely on). */
export async function readJsonReport(path: string): Promise<JsonReport> {
  const text = await readNamedFile(path, (why) => invalid(path, `the file ${why}`));
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(path, `not JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null) throw invalid(path, 'not a JSON object');
  const report = data as Partial<JsonReport>;
  if (report.format !== REPORT_FORMAT) throw invalid(path, `"format" is not "${REPORT_FORMAT}"`);
  if (!READABLE_VERSIONS.includes(report.formatVersion as number)) throw invalid(path, `formatVersion ${String(report.formatVersion)} is not supported (expected ${READABLE_VERSIONS.join(' or ')})`);
  if (!Array.isArray(report.results)) throw invalid(path, '"results" is not a list');
  for (const [index, result] of report.results.entries()) {
    if (typeof result !== 'object' || result === null || typeof result.id !== 'string' || typeof result.state !== 'string') {
      throw invalid(path, `results[${index}] has no string "id" and "state"`);
    }
  }
  return report as JsonReport;
}
