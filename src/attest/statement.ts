/**
 * The in-toto Statement v1 of one run, with the test-result predicate
 * (https://in-toto.io/attestation/test-result/v0.1: `result`, `configuration`, `url`, `passedTests`,
 * `warnedTests`, `failedTests`). It is built from report.json as written (its result list, its verdict,
 * its subject statement), never from the engine's internals: what is signed is what the report says, and
 * the report's own digest binds the rest of it.
 *
 * Every selected result lands in exactly one list, so a verifier sees that nothing was left out:
 * passed → `passedTests`; a failed SHOULD (without --strict) or INFO → `warnedTests`; a failed MUST (or
 * SHOULD with --strict) and an errored check (the predicate's "failed with errors") → `failedTests`;
 * skipped and blocked checks, which the predicate has no list for, go to the extension field
 * `accessConformance` (in-toto's parsing rules allow extension fields; ignoring it never turns a DENY into
 * an ALLOW, since those checks are in none of the three lists).
 */
import { HarnessError } from '../errors.js';
import { operationKey, operationName } from '../openapi/operation.js';
import type { ResourceDescriptor } from './configuration.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1';
/** The DSSE payload type of an in-toto statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** The predicate's extension field: named after the tool, unlikely to collide, no `.` or `$`. */
export const EXTENSION_FIELD = 'accessConformance';

export type TestResult = 'PASSED' | 'WARNED' | 'FAILED';

export interface Subject {
  name: string;
  digest: Record<string, string>;
}

export interface AccessConformanceExtension {
  /** report.json, by its SHA-256: the full report this attestation vouches for. */
  report: ResourceDescriptor;
  catalogueVersion: string;
  /** The run's verdict as the report states it (exit code 0 conformant, 1 not, 2 undecided). */
  verdict: { status: string; exitCode: number; reason: string };
  /** Where the subject came from: `--image`, `--subject`, or the OpenAPI description (report.json `attestation.note`). */
  subjectFrom: string;
  /** The failed tests that errored (the harness could not decide), also in `failedTests`. */
  erroredTests: string[];
  /** Checks that were selected and not run, each with why. */
  skippedTests: Array<{ name: string; reason: string }>;
  /** Refusal checks whose positive control did not pass, so the refusal proved nothing. */
  blockedTests: Array<{ name: string; blockedBy: string }>;
  /** Failed checks the --baseline expected (still in `failedTests`). */
  expectedFailures: string[];
  /** Results in the report; each is in exactly one of the five lists. */
  results: number;
  /**
   * Present when the run certifies a part of the description (`run --partial`, the profile's `"scope"`):
   * the operations not implemented, each with why, and what declared the scope. `result` is then never
   * PASSED (WARNED at best), so a policy that reads only `result` never takes a subset for the whole.
   */
  scope?: AttestedScope;
}

/** The scope as the statement carries it: operations by `METHOD path`, named beside `result`. */
export interface AttestedScope {
  /** One line: "5 of 39 operations implemented and checked; 34 not implemented (run --partial)". */
  summary: string;
  /** `--partial`, `profile`. */
  sources: string[];
  /** The profile's `"scope"` as written, when it declared one. */
  declared?: { kind: string; entries: string[] };
  operations: number;
  implemented: string[];
  notImplemented: Array<{ operation: string; source: string; answered?: number }>;
}

export interface TestResultPredicate {
  result: TestResult;
  configuration: ResourceDescriptor[];
  url?: string;
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
  [EXTENSION_FIELD]: AccessConformanceExtension;
}

export interface TestResultStatement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof TEST_RESULT_PREDICATE_TYPE;
  predicate: TestResultPredicate;
}

/** The parts of report.json the statement is made from, as read from the file (checked, not trusted). */
export interface AttestedReport {
  catalogueVersion: string;
  strict: boolean;
  results: Array<{
    id: string;
    operation?: { method: string; path: string };
    level: string;
    state: string;
    reason?: string;
    blockedBy?: string;
    expectedFailure?: boolean;
  }>;
  verdict: { status: string; exitCode: number; reason: string };
  /** The description the run read (source, digest), when it read one. */
  operations?: { description?: { source: string; sha256?: string; openapi?: string } };
  attestation?: { subject: { name: string; digest: { sha256?: string } }; from: string; note: string };
  /** The part of the description the run certifies (report.json `scope`), when it certifies a part. */
  scope?: {
    summary: string;
    sources: string[];
    declared?: { kind: string; entries: string[] };
    operations: number;
    implemented: Array<{ method: string; path: string }>;
    notImplemented: Array<{ operation: { method: string; path: string }; source: string; answered?: number }>;
  };
}

function invalid(why: string): HarnessError {
  return new HarnessError('REPORT_INVALID', `report.json cannot be attested: ${why}`, { hint: 'attest the report.json this run wrote, unchanged' });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads report.json's text into the parts the statement needs, refusing a file that lacks them. */
export function readAttestedReport(text: string): AttestedReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(`not JSON (${(error as Error).message})`);
  }
  if (!isObject(data)) throw invalid('not a JSON object');
  if (typeof data.catalogueVersion !== 'string') throw invalid('no "catalogueVersion"');
  if (!Array.isArray(data.results)) throw invalid('no "results" list');
  const verdict = data.verdict;
  if (!isObject(verdict) || typeof verdict.status !== 'string' || typeof verdict.exitCode !== 'number') throw invalid('no "verdict"');
  for (const [index, result] of data.results.entries()) {
    if (!isObject(result) || typeof result.id !== 'string' || typeof result.state !== 'string' || typeof result.level !== 'string') {
      throw invalid(`results[${index}] has no string "id", "level" and "state"`);
    }
    const op = result.operation;
    if (op !== undefined && (!isObject(op) || typeof op.method !== 'string' || typeof op.path !== 'string')) throw invalid(`results[${index}].operation has no method and path`);
  }
  if (data.scope !== undefined) checkScope(data.scope);
  return data as unknown as AttestedReport;
}

const isOperation = (value: unknown): boolean => isObject(value) && typeof value.method === 'string' && typeof value.path === 'string';

/** A scope the statement will name: its lists must be what report.json writes, or the file is refused. */
function checkScope(scope: unknown): void {
  if (!isObject(scope) || typeof scope.summary !== 'string' || !Array.isArray(scope.sources) || typeof scope.operations !== 'number' || !Array.isArray(scope.implemented) || !Array.isArray(scope.notImplemented)) {
    throw invalid('its "scope" has no summary, sources, operations, implemented and notImplemented');
  }
  if (!scope.implemented.every(isOperation) || !scope.notImplemented.every((entry) => isObject(entry) && isOperation(entry.operation) && typeof entry.source === 'string')) {
    throw invalid('its "scope" names an operation without method and path');
  }
}

/** The statement's scope: the operations by `METHOD path`, what declared it, and the line every report prints. */
export function attestedScope(scope: NonNullable<AttestedReport['scope']>): AttestedScope {
  const name = (op: { method: string; path: string }): string => operationName(op);
  return {
    summary: scope.summary,
    sources: [...scope.sources],
    ...(scope.declared ? { declared: { kind: scope.declared.kind, entries: [...scope.declared.entries] } } : {}),
    operations: scope.operations,
    implemented: scope.implemented.map(name),
    notImplemented: scope.notImplemented.map((entry) => ({ operation: name(entry.operation), source: entry.source, ...(entry.answered === undefined ? {} : { answered: entry.answered }) })),
  };
}

/** A result's test name: its requirement ID, or `ID@METHOD path` for one operation's result (ruling 34). */
export function testName(result: AttestedReport['results'][number]): string {
  return result.operation ? operationKey(result.id, result.operation) : result.id;
}

export interface TestLists {
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
  erroredTests: string[];
  skippedTests: Array<{ name: string; reason: string }>;
  blockedTests: Array<{ name: string; blockedBy: string }>;
  expectedFailures: string[];
}

/** Each result into its one list (the file comment says which). */
export function testLists(report: AttestedReport): TestLists {
  const lists: TestLists = { passedTests: [], warnedTests: [], failedTests: [], erroredTests: [], skippedTests: [], blockedTests: [], expectedFailures: [] };
  for (const result of report.results) {
    const name = testName(result);
    switch (result.state) {
      case 'passed':
        lists.passedTests.push(name);
        break;
      case 'failed': {
        const counts = result.level === 'MUST' || (report.strict && result.level === 'SHOULD');
        (counts ? lists.failedTests : lists.warnedTests).push(name);
        if (result.expectedFailure === true) lists.expectedFailures.push(name);
        break;
      }
      case 'errored':
        lists.failedTests.push(name);
        lists.erroredTests.push(name);
        break;
      case 'skipped':
        lists.skippedTests.push({ name, reason: result.reason ?? 'skipped' });
        break;
      case 'blocked':
        lists.blockedTests.push({ name, blockedBy: result.blockedBy ?? 'its positive control' });
        break;
      default:
        throw invalid(`result ${name} has the unknown state "${result.state}"`);
    }
  }
  return lists;
}

/**
 * The predicate's `result`: FAILED when a test failed or the run did not end conformant (exit 0), so a
 * run stopped early, undecided, or passing only thanks to a --baseline never reads as a pass; WARNED when
 * it is conformant with warnings, or conformant for a part of the description only (`partial`: report.json
 * has a `scope`); PASSED otherwise.
 */
export function overallResult(lists: TestLists, verdictExitCode: number, partial = false): TestResult {
  if (lists.failedTests.length > 0 || verdictExitCode !== 0) return 'FAILED';
  // A certificate of a part of the description: never PASSED, the scope is named beside the result.
  return lists.warnedTests.length > 0 || partial ? 'WARNED' : 'PASSED';
}

/** `NAME@sha256:HEX` (the last `@sha256:` splits, so a name may hold `@`), hex lowercased. */
export function parseSubject(text: string, flag = '--subject'): Subject {
  const at = text.lastIndexOf('@sha256:');
  const name = at > 0 ? text.slice(0, at) : '';
  const hex = at > 0 ? text.slice(at + '@sha256:'.length).toLowerCase() : '';
  if (name.trim() === '' || !/^[0-9a-f]{64}$/.test(hex)) {
    throw new HarnessError('USAGE', `${flag} takes NAME@sha256:HEX (64 hex digits), e.g. ghcr.io/acme/access-service@sha256:${'0'.repeat(64)}; got "${text.slice(0, 120)}"`, {
      field: flag,
      hint: 'the digest of the build or release the run checked: `docker inspect --format "{{index .RepoDigests 0}}" IMAGE`, or `sha256sum` of a release file',
    });
  }
  return { name, digest: { sha256: hex } };
}

export interface StatementInput {
  report: AttestedReport;
  /** SHA-256 of report.json's bytes, as written. */
  reportSha256: string;
  configuration: ResourceDescriptor[];
  /** A link to the run (a CI job), when there is one. */
  url?: string;
}

export function buildStatement(input: StatementInput): TestResultStatement {
  const { report } = input;
  const attestation = report.attestation;
  const sha256 = attestation?.subject.digest.sha256;
  if (attestation === undefined || sha256 === undefined) {
    throw invalid(
      attestation === undefined
        ? 'it has no "attestation" subject (it was not written by run --attest)'
        : 'its subject has no digest: the run read no OpenAPI description; give --subject NAME@sha256:HEX',
    );
  }
  const lists = testLists(report);
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: attestation.subject.name, digest: { sha256 } }],
    predicateType: TEST_RESULT_PREDICATE_TYPE,
    predicate: {
      result: overallResult(lists, report.verdict.exitCode, (report.scope?.notImplemented.length ?? 0) > 0),
      configuration: input.configuration,
      ...(input.url === undefined ? {} : { url: input.url }),
      passedTests: lists.passedTests,
      warnedTests: lists.warnedTests,
      failedTests: lists.failedTests,
      [EXTENSION_FIELD]: {
        report: { name: 'report.json', digest: { sha256: input.reportSha256 }, mediaType: 'application/json' },
        catalogueVersion: report.catalogueVersion,
        verdict: { status: report.verdict.status, exitCode: report.verdict.exitCode, reason: report.verdict.reason },
        subjectFrom: attestation.from,
        erroredTests: lists.erroredTests,
        skippedTests: lists.skippedTests,
        blockedTests: lists.blockedTests,
        expectedFailures: lists.expectedFailures,
        results: report.results.length,
        ...(report.scope ? { scope: attestedScope(report.scope) } : {}),
      },
    },
  };
}

/** The GitHub Actions run this process is part of, from the runner's own variables; else nothing. */
export function ciRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run, GITHUB_RUN_ATTEMPT: attempt } = env;
  if (!server || !repo || !run || !/^https:\/\/[^\s/]+$/.test(server) || !/^[\w.-]+\/[\w.-]+$/.test(repo) || !/^\d+$/.test(run)) return undefined;
  return `${server}/${repo}/actions/runs/${run}${attempt && /^\d+$/.test(attempt) ? `/attempts/${attempt}` : ''}`;
}
