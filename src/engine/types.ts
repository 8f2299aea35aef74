/**
 * The engine's public shapes: what `runConformance` takes, the events it emits while it runs, and the
 * summary it returns. Reporters (src/reporters/) consume only these; they never see vitest.
 */
import type { RecordedExchange } from '../client/types.js';
import type { HarnessErrorCode } from '../errors.js';
import type { Authority, Level } from '../requirements/types.js';

export type CheckState = 'passed' | 'failed' | 'skipped' | 'errored';

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
  selection: SelectionInput & { selected: number };
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
}

export interface CheckResult {
  id: string;
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
  /** The baseline lists this ID: a failure here does not fail the run. */
  expectedFailure?: boolean;
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
}

export interface RunTotals extends GroupCounts {
  /** Checks the run selected. */
  selected: number;
  byLevel: Record<Level, LevelTotals>;
  /** Failed checks the baseline expected. */
  expectedFailures: number;
}

/** `interrupted`: SIGINT or SIGTERM stopped the run (exit 130 / 143): nothing is decided about conformance. */
export type VerdictStatus = 'conformant' | 'not-conformant' | 'error' | 'interrupted';

export interface Verdict {
  status: VerdictStatus;
  /** The code the process ends with: 0, 1, 2, or 130 / 143 after SIGINT / SIGTERM. */
  exitCode: 0 | 1 | 2 | 130 | 143;
  /** One sentence: why this verdict. */
  reason: string;
}

export interface BaselineOutcome {
  /** Where the baseline came from. */
  source: string;
  /** Baseline IDs that failed again (tolerated). */
  stillFailing: string[];
  /** Baseline IDs that passed this time: remove them from the baseline. */
  noLongerFailing: string[];
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
}

/** Why a run stopped early. `signal` is set when SIGINT or SIGTERM stopped it (exit 130 / 143). */
export interface RunAbort {
  code: HarnessErrorCode;
  message: string;
  /** What the user can do about it, when the cause was a harness error that said. */
  hint?: string;
  signal?: 'SIGINT' | 'SIGTERM';
}

type Awaitable<T> = T | Promise<T>;

/**
 * A consumer of engine events (vitest-style reporter). Every method is optional. Reporters that write files
 * do so in onRunEnd; the engine awaits every reporter before runConformance resolves.
 */
export interface EngineReporter {
  onRunStart?(header: RunHeader): Awaitable<void>;
  onGroupStart?(event: GroupStartEvent): Awaitable<void>;
  onCheckEnd?(result: CheckResult): Awaitable<void>;
  onGroupEnd?(event: GroupEndEvent): Awaitable<void>;
  onHeartbeat?(event: HeartbeatEvent): Awaitable<void>;
  onRunEnd?(summary: RunSummary): Awaitable<void>;
}
