/**
 * The engine's public shapes: what `runConformance` takes, the events it emits while it runs, and the
 * summary it returns. Reporters (src/reporters/) consume only these; they never see vitest.
 */
import type { StopReason } from '../stop/reason.js';
import type { RecordedExchange } from '../client/types.js';
import type { HarnessErrorCode } from '../errors.js';
import type { Authority, Level } from '../requirements/types.js';

/**
 * `blocked`: a check that expects a refusal got one, but its positive control (the accepted form of the same
 * request, src/requirements/controls.ts) did not pass in the run, so the refusal proves nothing (ruling 30).
 */
export type CheckState = 'passed' | 'failed' | 'skipped' | 'errored' | 'blocked';

/** Which checks a run covers: IDs or globs (`WH-HMAC-*`); empty `only` means every check. */
export interface SelectionInput {
  only: string[];
  skip: string[];
}

/** Phase 1 runs in parallel; phase 2 holds the clock-moving checks, one at a time, after everything else. */
export type Phase = 'main' | 'clock';

export interface RunHeader {
  tool: { name: string; version: string };
  catalogueVersion: string;
  profileName: string;
  /** The target's base URL. */
  target: string;
  /** How the target was started, when the harness started it (embedded reference, image). */
  targetDescription?: string;
  seed: string;
  /** ISO 8601, when the run started. */
  date: string;
  /**
   * `selected`: every check of the run, the ones --only/--skip name and the ones it pulled in (`pulledIn`:
   * positive controls of selected refusal checks, ruling 30; absent when none); every report counts the same.
   */
  selection: SelectionInput & { selected: number; pulledIn?: PulledInCheck[] };
  strict: boolean;
  /**
   * How the run talks to the target. `maxDurationMs`: the run's deadline (given or derived);
   * `maxConsecutiveFailures`: requests in a row that may fail before the run gives up (0: never);
   * `retryAfterCapMs`: the longest 429 Retry-After honoured.
   */
  settings: { timeoutMs: number; concurrency: number; rateLimit?: number; maxDurationMs?: number; maxConsecutiveFailures?: number; retryAfterCapMs?: number };
  capabilities: { clock: boolean; runs: boolean };
  /** Things the preflight noticed that change what gets checked (e.g. declared hooks that do not answer). */
  notes: string[];
  /** The IDs the run will check (catalogue order). */
  selectedIds: string[];
  /**
   * The run's operations (ruling 34), when it had a description or the profile's `"operations"`: where they
   * came from, which it calls, and each it never calls with why (changes data, does not page, a path
   * parameter the profile cannot fill).
   */
  operations?: RunOperations;
}

/** The header's account of the operations: what was read, called, and left alone. */
export interface RunOperations {
  description?: { source: string; openapi: string; sha256?: string; infoVersion?: string; operations: number; paginated: number };
  /** `sentPath`: the path as sent (parameters filled); `optedIn`: called because the user named it (`--allow-operation`). */
  called: Array<{ method: string; path: string; operationId?: string; sentPath?: string; paginated: 'query' | 'body' | false; optedIn?: true }>;
  notCalled: Array<{ method: string; path: string; operationId?: string; reason: string }>;
}

/** One operation of the target's description (ruling 34), as a per-operation result names it: src/openapi owns it. */
export type { OperationRef } from '../openapi/operation.js';
import type { OperationRef } from '../openapi/operation.js';

/** A check --only/--skip did not name that the run pulled in: the positive control of selected refusal checks. */
export interface PulledInCheck {
  id: string;
  /** The selected refusal checks it is the positive control of (ruling 30), catalogue order. */
  controlOf: string[];
}

export interface CheckResult {
  /** The requirement ID (several results share it when the requirement is checked per operation). */
  id: string;
  /** Set on a per-operation requirement's result (ruling 34): the operation it is about. */
  operation?: OperationRef;
  level: Level;
  group: string;
  section: string;
  ruling?: number;
  /** Where the requirement comes from (catalogue `authority`); absent in reports written before it existed. */
  authority?: Authority;
  /** The requirement sentence. */
  text: string;
  state: CheckState;
  /** Why it was skipped. */
  reason?: string;
  failure?: { message: string; expected: string; actual: string };
  harnessError?: { code: HarnessErrorCode; message: string; hint?: string };
  observations: string[];
  exchanges: RecordedExchange[];
  durationMs: number;
  phase: Phase;
  /**
   * The baseline lists this ID, or it is a dependant of a listed root cause: a failure (or a block) here
   * does not fail the run.
   */
  expectedFailure?: boolean;
  /** Blocked only: the control that did not pass (its ID and result), or the check's own control request. */
  blockedBy?: BlockedBy;
  /**
   * Set when --only/--skip did not name this check and the run pulled it in as the positive control of
   * selected refusal checks: counted like every other result, and named as such in every report (it is
   * often the root cause of what the selection was about).
   */
  pulledIn?: { controlOf: string[] };
  /**
   * Set when the run's scope (scope.ts) counts this result's operation as not implemented: the result is
   * `skipped` (it neither passes nor fails), and `answered` is the status its valid first call got (404 or
   * 501; absent when the profile's scope left the operation out before any call).
   */
  notImplemented?: { source: ScopeSource; answered?: number };
}

/** Where a scope decision came from: `run --partial` (found in the run), or the profile's `"scope"`. */
export type ScopeSource = '--partial' | 'profile';

/**
 * The part of the description a run certifies (issue 48): every report carries it, so a certificate of a
 * subset is never read as one of the whole. Absent when the run had no operations, or when nothing was
 * declared or found missing (no `--partial`, no `"scope"`).
 */
export interface RunScope {
  /** One line, the same in every report: "5 of 39 operations implemented and checked; 34 not implemented (run --partial)". */
  summary: string;
  /** What declared it: `--partial`, `profile` (its `"scope"`), or both. */
  sources: ScopeSource[];
  /** The profile's declaration as written, when it has one. */
  declared?: { kind: 'implements' | 'excludes'; entries: string[] };
  /** Operations the run checks one by one (the plan's, the ones the profile's scope left out included). */
  operations: number;
  /** Operations checked as implemented (`METHOD path`, plan order). */
  implemented: OperationRef[];
  /** Operations not implemented, each with why: the status its valid first call got, or the profile's scope. */
  notImplemented: Array<{ operation: OperationRef; source: ScopeSource; answered?: number }>;
}

/**
 * Two or more operations whose valid first call got the same 404 or 501 (absent-operations.ts): one root
 * cause in every report, the operations listed once; `roots` are the results (keys) it stands for.
 */
export interface AbsentOperations {
  status: number;
  /** "34 operations of the description answer 404 to a valid call: not implemented here, or …". */
  message: string;
  operations: OperationRef[];
  roots: string[];
  /** Results that did not pass because of them (the roots' dependants), all operations together. */
  dependants: number;
}

export interface BlockedBy {
  /** The control's requirement ID (for `ownRequest`, the check's own ID). */
  control: string;
  /** What the control did in this run. */
  state: CheckState;
  /** The control's failure or error, one line. */
  message: string;
  /** The check's own control request (made within it, before the refusal) was not accepted. */
  ownRequest?: boolean;
}

export interface GroupStartEvent {
  group: string;
  phase: Phase;
  /** Selected checks of this group in this phase. */
  checks: number;
}

export interface GroupCounts {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  blocked: number;
}

export interface GroupEndEvent extends GroupStartEvent {
  counts: GroupCounts;
  durationMs: number;
}

export interface HeartbeatEvent {
  /** Groups that started and have not ended. */
  running: Array<{ group: string; phase: Phase; done: number; checks: number; elapsedMs: number }>;
  elapsedMs: number;
}

export interface LevelTotals {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
  blocked: number;
}

/**
 * The one set of counts (engine/counts.ts): every selected check in exactly one bucket. `failed`: failures
 * that count against the verdict (MUST, or SHOULD with --strict) the baseline does not expect; `blocked`:
 * blocks it does not expect.
 */
export interface RunTotals extends GroupCounts {
  /** Checks the run selected: the sum of the buckets. */
  selected: number;
  /** SHOULD failures without --strict. */
  warnings: number;
  /** INFO failures (recorded, never fail the run). */
  observations: number;
  /** Failed or blocked checks the baseline expected (listed, or dependants of a listed root cause). */
  expectedFailures: number;
  /**
   * Of `selected`, the checks the run pulled in (positive controls --only/--skip did not name); counted in
   * the buckets like the others. Absent in reports written before it existed.
   */
  pulledIn?: number;
  /** The raw state of each check, per level. */
  byLevel: Record<Level, LevelTotals>;
}

/** `interrupted`: SIGINT or SIGTERM stopped the run (exit 130 / 143): nothing is decided about conformance. */
export type VerdictStatus = 'conformant' | 'not-conformant' | 'error' | 'interrupted';

export interface Verdict {
  status: VerdictStatus;
  /** The code the process ends with: 0, 1, 2, or 130 / 143 after SIGINT / SIGTERM. */
  exitCode: 0 | 1 | 2 | 130 | 143;
  /** One sentence: why this verdict. */
  reason: string;
  /** The harness error behind an `error` verdict that has one code (UNIFORM_ANSWER). */
  code?: HarnessErrorCode;
}

export interface BaselineOutcome {
  /** Where the baseline came from. */
  source: string;
  /** Baseline IDs that failed again (tolerated). */
  stillFailing: string[];
  /** Baseline IDs that passed this time (fixed): remove them from the baseline. */
  noLongerFailing: string[];
  /** Checks the baseline does not list that did not pass only because of a listed root cause (its dependants). */
  covered: string[];
  /** Results the baseline expected in all: the listed ones that failed again and the covered dependants. */
  expected: number;
  /** Baseline IDs the catalogue does not know (ignored). */
  unknown: string[];
}

export interface RunSummary {
  header: RunHeader;
  /** Catalogue order. */
  results: CheckResult[];
  totals: RunTotals;
  verdict: Verdict;
  /** SHOULD failures without --strict. */
  warnings: string[];
  baseline?: BaselineOutcome;
  durationMs: number;
  /** Errors outside any check (a suite file that failed to load, an unhandled rejection). */
  harnessErrors: Array<{ code: HarnessErrorCode; message: string }>;
  /**
   * Set when the run stopped before every check finished (the target did not answer, the deadline, giving
   * up after consecutive failures, a harness error, SIGINT/SIGTERM): `results` hold what finished, every
   * other selected check is errored with this reason, and `verdict.status` is `interrupted` (a signal, exit
   * 130 / 143) or `error` (exit 2).
   */
  aborted?: RunAbort;
  /**
   * Failures grouped by the control or prerequisite they follow from, root causes first (root-causes.ts);
   * reporters derive them from `results` when absent (a summary built by hand).
   */
  rootCauses?: RootCause[];
  /** Set when nearly every request of the run got the same answer (uniform-answer.ts). */
  uniformAnswer?: UniformAnswer;
  /** Set when the run moved the target's clock forward (clock-watch.ts), which nothing can undo. */
  clockMoved?: ClockMoved;
  /** The part of the description the run certifies, when a scope was declared or found (`--partial`). */
  scope?: RunScope;
  /** Operations that answer a valid call with the same 404 or 501, grouped (two or more). */
  absentOperations?: AbsentOperations[];
}

/** How far the run moved the target's clock; `seconds` absent when it could not be read at the end. */
export interface ClockMoved {
  seconds?: number;
  /** One sentence for every reporter: the amount, and that local-time signers will be refused. */
  note: string;
}

/** A check that did not pass for a reason of its own, with the checks that did not pass because of it. */
export interface RootCause {
  id: string;
  /** Checks whose control or prerequisite chain leads here and that did not pass, catalogue order. */
  dependants: string[];
  /** Dependants that failed (not blocked): the target accepted what it must refuse, or broke on its own. */
  failingDependants: string[];
  /**
   * Refusal checks among the dependants whose spoiled request the target ACCEPTED (2xx) while it refused
   * the valid one: the rule it applies instead, shown beside the root cause (the decoded HMAC key's WH-HMAC-08).
   */
  acceptedInstead: string[];
}

/** The one answer nearly every request of the run got, and what to check. */
export interface UniformAnswer {
  /** `404`, or a transport code when no answer came (`TARGET_UNREACHABLE`, `TIMEOUT`, …). */
  answer: string;
  /** Requests that got it, of `requests` in all. */
  count: number;
  requests: number;
  /** One line: "every request got 404 (182 of 182)". */
  message: string;
  /** What to check, one sentence. */
  hint: string;
}

/** Why a run stopped early: the stop room's one record (`signal` set when SIGINT or SIGTERM stopped it). */
export type RunAbort = StopReason;

type Awaitable<T> = T | Promise<T>;

/**
 * A consumer of engine events (vitest-style reporter). Every method is optional. Reporters that write files
 * do so in onRunEnd; the engine awaits every reporter before runConformance resolves.
 */
/** The events a reporter may handle: its methods (EngineReporter also says what it reads). */
export type ReporterEvent = { [K in keyof EngineReporter]-?: NonNullable<EngineReporter[K]> extends (...args: never[]) => unknown ? K : never }[keyof EngineReporter];

export interface EngineReporter {
  /**
   * Whether it reads the exchanges of checks that passed. When no reporter of a run does, a passed check's
   * result carries none: the suite thread then never redacts them, ships them or holds them (most of a
   * passing run's exchanges, and a tenth of its CPU). Absent means it does, so a reporter written elsewhere
   * keeps what it was given.
   */
  readonly readsPassedExchanges?: boolean;
  onRunStart?(header: RunHeader): Awaitable<void>;
  onGroupStart?(event: GroupStartEvent): Awaitable<void>;
  onCheckEnd?(result: CheckResult): Awaitable<void>;
  onGroupEnd?(event: GroupEndEvent): Awaitable<void>;
  onHeartbeat?(event: HeartbeatEvent): Awaitable<void>;
  /** The first requests of the run all got one answer: said as soon as it is known, before any group line. */
  onUniformAnswer?(answer: UniformAnswer): Awaitable<void>;
  onRunEnd?(summary: RunSummary): Awaitable<void>;
}
