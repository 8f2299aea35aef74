/**
 * Self-verification: the suites against the reference (every check must pass) and against every fault
 * (exactly the declared checks must fail). A fault is *caught* when every requirement in its `breaks` is
 * reported failed; it *verifies* when, besides, every other check that did not pass is explained in its
 * `explains` and every explanation still holds (the explained check really did not pass). The score:
 * faults caught / faults run, and requirements covered (in the `breaks` of a caught fault) / catalogue, with
 * MUST and SHOULD separately; INFO checks never fail by design and cannot be covered.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { packageRoot } from '../package.js';
import { DEFAULT_CONCURRENCY } from '../defaults.js';
import type { CheckState } from '../engine/types.js';
import { allRequirements, type Level, type Requirement, type RequirementId } from '../requirements/catalogue.js';
import { parentsOf } from '../requirements/controls.js';
import { listFaults } from '../faults/index.js';
import type { FaultDefinition } from '../faults/types.js';
import { runInPool } from './runner/pool.js';
import type { RunReport } from './runner/protocol.js';
import { planFault, planReference, type RunPlan } from './verify-plan.js';
import { runAll, runCli } from './verify-run.js';
import { note, type CheckNote, resultsById } from './check-note.js';
import { allSubjects, judgeVariant, planSubject, type VariantOutcome, type VariantSubject } from './verify-variants.js';
import { stopMs } from '../stop/timings.js';

export type { CheckNote } from './check-note.js';

/** One finished run, whichever way it ran (a CLI child or a session worker). */
export interface FinishedRun {
  plan: RunPlan;
  report?: RunReport;
  /** The CLI's exit code (CLI runs only). */
  exitCode?: number | null;
  error?: string;
  durationMs: number;
}

export interface FaultOutcome {
  name: string;
  area: FaultDefinition['area'];
  description: string;
  breaks: RequirementId[];
  groups: string[];
  /** Checks selected for this fault's run. */
  selected: number;
  /** Declared breaks reported failed. */
  caughtBreaks: RequirementId[];
  /** Declared breaks that did not fail (with what they did instead). */
  missing: CheckNote[];
  /** Checks that did not pass and are neither in `breaks` nor in `explains`. */
  unexplained: CheckNote[];
  /** `explains` entries whose check passed: the explanation no longer holds. */
  stale: RequirementId[];
  /** Checks outside `breaks` that did not pass and are explained. */
  explainedFailures: number;
  caught: boolean;
  verified: boolean;
  error?: string;
  durationMs: number;
}

export interface ReferenceOutcome {
  selected: number;
  passed: number;
  /** Every check that did not pass (failed, errored, skipped). */
  notPassed: CheckNote[];
  clean: boolean;
  exitCode: number | null;
  error?: string;
  durationMs: number;
}

export interface Coverage {
  total: number;
  covered: number;
  uncovered: RequirementId[];
}

export interface MutationScore {
  faultsRun: number;
  faultsCaught: number;
  faultsVerified: number;
  /** Every catalogue requirement. */
  requirements: Coverage;
  byLevel: Record<Level, Coverage>;
}

export interface VerificationResult {
  seed: string;
  concurrency: number;
  reference?: ReferenceOutcome;
  faults: FaultOutcome[];
  /** Legitimate variants and stacks (verify-variants.ts). */
  variants?: VariantOutcome[];
  score: MutationScore;
  durationMs: number;
}

export interface VerifyOptions {
  seed: string;
  /** Worker processes (or CLI children) at once. */
  concurrency: number;
  /**
   * `session` (default): faults run in worker processes that each keep one vitest session (runner/);
   * `cli`: every fault is a `run --fault` child process, as a user would run it (slower).
   */
  mode?: 'session' | 'cli';
  /** Checks in flight at once in each worker process, as `run --concurrency`; default the CLI's default. */
  checksInFlight?: number;
  /** Default: every registered fault. */
  faults?: readonly FaultDefinition[];
  /** Variants and stacks to verify; default every one when `faults` is not given, else none. */
  variants?: readonly VariantSubject[];
  /** Run the clean reference too (default true). */
  reference?: boolean;
  outDir?: string;
  cliPath?: string;
  /** Per-run kill timeout; default stop/timings.ts `faultWorker`. */
  runTimeoutMs?: number;
  onRun?: (run: FinishedRun) => void;
}

type ReportResult = RunReport['results'][number];

/**
 * A blocked check follows from a declared one when its control (or, looking further up, the control's
 * prerequisites) is in the fault's `breaks` or `explains` and did not pass: the fault broke the control, and
 * the refusal check could prove nothing (ruling 30). Such a check needs no explanation of its own; it is
 * never a catch either (see `caughtBreaks`).
 */
function followsFromDeclared(result: ReportResult, results: ReadonlyMap<string, ReportResult>, declared: ReadonlySet<string>): boolean {
  if (result.state !== 'blocked') return false;
  const start = result.blockedBy && !result.blockedBy.ownRequest ? [result.blockedBy.control] : parentsOf(result.id);
  const seen = new Set<string>([result.id]);
  for (let frontier: string[] = start; frontier.length > 0; ) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      const parent = results.get(id);
      if (parent?.state === 'passed' || parent?.state === 'skipped') continue;
      if (parent && declared.has(id)) return true;
      next.push(...parentsOf(id));
    }
    frontier = next;
  }
  return false;
}

export function judgeFault(fault: FaultDefinition, run: FinishedRun): FaultOutcome {
  const base = {
    name: fault.name,
    area: fault.area,
    description: fault.description,
    breaks: fault.breaks,
    groups: run.plan.groups,
    durationMs: run.durationMs,
  };
  if (!run.report) {
    const missing = fault.breaks.map((id) => ({ id, state: 'errored' as CheckState, message: 'no report' }));
    return { ...base, selected: 0, caughtBreaks: [], missing, unexplained: [], stale: [], explainedFailures: 0, caught: false, verified: false, error: run.error ?? 'no report' };
  }
  const results = resultsById(run.report.results);
  const explained = new Set(Object.keys(fault.explains ?? {}));
  const declared = new Set<string>(fault.breaks);
  // Caught means FAILED: a declared check that is only blocked (its control failed) caught nothing.
  const caughtBreaks = fault.breaks.filter((id) => results.get(id)?.state === 'failed');
  const missing = fault.breaks
    .filter((id) => results.get(id)?.state !== 'failed')
    .map((id) => {
      const result = results.get(id);
      return result ? note(result) : { id, state: 'skipped' as CheckState, message: 'not in the run' };
    });
  const declaredOrExplained = new Set<string>([...declared, ...explained]);
  const unexplained = run.report.results
    .filter((r) => r.state !== 'passed' && !declared.has(r.id) && !explained.has(r.id) && !followsFromDeclared(r, results, declaredOrExplained))
    .map(note);
  const stale = [...explained].filter((id) => results.get(id)?.state === 'passed') as RequirementId[];
  const explainedFailures = run.report.results.filter((r) => r.state !== 'passed' && !declared.has(r.id) && explained.has(r.id)).length;
  const caught = missing.length === 0;
  return {
    ...base,
    selected: run.report.results.length,
    caughtBreaks,
    missing,
    unexplained,
    stale,
    explainedFailures,
    caught,
    // Errors outside any check (a suite that failed to load, an unhandled rejection) leave the run in doubt.
    verified: caught && unexplained.length === 0 && stale.length === 0 && run.report.harnessErrors.length === 0,
    ...(run.report.harnessErrors.length > 0 ? { error: run.report.harnessErrors.map((e) => e.message).join('; ') } : {}),
  };
}

export function judgeReference(run: FinishedRun): ReferenceOutcome {
  if (!run.report) {
    return { selected: 0, passed: 0, notPassed: [], clean: false, exitCode: run.exitCode ?? null, error: run.error ?? 'no report', durationMs: run.durationMs };
  }
  const notPassed = run.report.results.filter((result) => result.state !== 'passed').map(note);
  const passed = run.report.results.length - notPassed.length;
  const clean = notPassed.length === 0 && run.report.harnessErrors.length === 0 && run.exitCode === 0;
  return { selected: run.report.results.length, passed, notPassed, clean, exitCode: run.exitCode ?? null, durationMs: run.durationMs };
}

function coverage(requirements: readonly Requirement[], covered: ReadonlySet<string>): Coverage {
  const uncovered = requirements.filter((req) => !covered.has(req.id)).map((req) => req.id);
  return { total: requirements.length, covered: requirements.length - uncovered.length, uncovered };
}

/** The score of a set of fault outcomes against the catalogue. */
export function scoreOf(outcomes: readonly FaultOutcome[], catalogue: readonly Requirement[] = allRequirements(), variants: readonly VariantOutcome[] = []): MutationScore {
  const covered = new Set<string>();
  for (const outcome of outcomes) if (outcome.caught) for (const id of outcome.breaks) covered.add(id);
  // A verified variant fails its SHOULD checks under --strict: proof the check can fail, by a real reading.
  for (const variant of variants) if (variant.kind === 'variant' && variant.verified) for (const id of variant.warns) covered.add(id);
  const level = (wanted: Level): Coverage => coverage(catalogue.filter((req) => req.level === wanted), covered);
  return {
    faultsRun: outcomes.length,
    faultsCaught: outcomes.filter((outcome) => outcome.caught).length,
    faultsVerified: outcomes.filter((outcome) => outcome.verified).length,
    requirements: coverage(catalogue, covered),
    byLevel: { MUST: level('MUST'), SHOULD: level('SHOULD'), INFO: level('INFO') },
  };
}

export async function verifyFaults(options: VerifyOptions): Promise<VerificationResult> {
  const started = Date.now();
  const faults = options.faults ?? listFaults();
  const plans: RunPlan[] = faults.map((fault) => planFault(fault));
  const subjects = options.variants ?? (options.faults === undefined ? allSubjects() : []);
  const subjectPlans = subjects.map((subject) => planSubject(subject));
  const checksInFlight = options.checksInFlight ?? DEFAULT_CONCURRENCY;
  const cli = {
    cliPath: options.cliPath ?? join(packageRoot(), 'bin', 'access-conformance.js'),
    seed: options.seed,
    outDir: options.outDir ?? join(tmpdir(), `access-conformance-faults-${process.pid}`),
    timeoutMs: options.runTimeoutMs ?? stopMs('faultWorker'),
  };
  // The clean reference goes through the real CLI, alongside the faults.
  const referenceRun = (options.reference ?? true) ? runCli(planReference(), cli).then((run) => (options.onRun?.(run), run)) : undefined;
  const pool = {
    processes: options.concurrency,
    checksInFlight,
    seed: options.seed,
    planTimeoutMs: cli.timeoutMs,
    ...(options.onRun ? { onDone: options.onRun } : {}),
  };
  // Variants run in the pool in either mode: `run --fault` knows faults only.
  const inPool = options.mode === 'cli' ? subjectPlans : [...plans, ...subjectPlans];
  const pooled = inPool.length > 0 ? await runInPool(inPool, pool) : [];
  const runs: FinishedRun[] = options.mode === 'cli' ? await runAll(plans, cli, options.concurrency, options.onRun) : pooled.filter((run) => run.plan.fault);
  const reference = referenceRun ? judgeReference(await referenceRun) : undefined;
  const outcomes = runs.map((run) => judgeFault(run.plan.fault!, run));
  const byName = new Map(pooled.map((run) => [run.plan.name, run]));
  const variants = subjects.map((subject) => judgeVariant(subject, byName.get(subject.name)!));
  return {
    seed: options.seed,
    concurrency: options.concurrency,
    ...(reference ? { reference } : {}),
    faults: outcomes,
    ...(subjects.length > 0 ? { variants } : {}),
    score: scoreOf(outcomes, allRequirements(), variants),
    durationMs: Date.now() - started,
  };
}
