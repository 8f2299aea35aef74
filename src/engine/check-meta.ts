/**
 * What a check hands its reporter beyond pass/fail, and what passes between the engine and the suites'
 * runner (the project's scheduler, or vitest, whose task meta carries the meta). Everything in a meta is
 * already redacted by the client's recorder.
 */
import type { JwksControl } from '../client/jwks-control.js';
import type { ClientSettings } from '../client/settings.js';
import type { RecordedExchange } from '../client/types.js';
import type { HarnessErrorCode } from '../errors.js';
import type { Level } from '../requirements/types.js';
import type { OperationPlan, OperationRef } from '../openapi/types.js';
import type { ResolvedProfile } from '../profile/types.js';
// Brings vitest's types into a program that compiles src/ alone (docker/Dockerfile does): without an import
// of its own, the augmentation below only worked when a test file had loaded 'vitest' first (TS2664).
import type {} from 'vitest';

export interface CheckMeta {
  requirementId: string;
  /** Set on one operation's check of a per-operation requirement (ruling 34). */
  operation?: OperationRef;
  level: Level;
  group: string;
  /** Set when the check was skipped: why (also vitest's skip note). */
  skipReason?: string;
  /** Set when the target broke the requirement. */
  failure?: { message: string; expected: string; actual: string };
  /**
   * Set when the check's own control request (the accepted form it sends before the refusal) was not
   * accepted: the check cannot conclude and is reported blocked (src/engine/controls.ts).
   */
  blocked?: { message: string };
  /** Set when the harness could not check (transport, hook, setup). */
  harnessError?: { code: HarnessErrorCode; message: string; hint?: string };
  /** INFO observations and warnings noted by the check. */
  observations: string[];
  /** The exchanges the check made (bounded). */
  exchanges: RecordedExchange[];
  /**
   * When the check had its slot (epoch ms) and how long it took from then: vitest starts every test at
   * once (suites/support/check-slots.ts), so its own times would count the wait for a slot.
   */
  startedAt?: number;
  durationMs?: number;
  /**
   * Lasting secrets the worker's client learned during the check (access tokens), for the run's redaction
   * registry; never shown. The run channel usually delivers them first; this is the path any pool has.
   */
  secrets?: string[];
}

/**
 * `Symbol.for` key of the count of check bodies still running in a suite thread (set by the suites' check
 * wrapper on globalThis, read by the thread's program in suite-pool.ts).
 */
export const CHECKS_IN_FLIGHT = 'access-conformance.checksInFlight';

/** What the engine gives the suites for a run (suites/support/run-context.ts; under vitest, `provide` / `inject`). */
export interface RunContext {
  /** Unique per run: the suites' modules serve run after run, and their per-run state (the client) follows this. */
  runId: string;
  profile: ResolvedProfile;
  /** The run's client settings, as the option values gave them: the suites' client is built with them whole. */
  client: ClientSettings;
  /** The run channel's name (run-channel.ts): secrets and request outcomes go to the engine through it. */
  channel?: string;
  /** Checks in flight at once (`--concurrency`): the suites hand out the slots (suites/support/check-slots.ts). */
  concurrency: number;
  /** A check's time limit unless it sets its own, counted from when it has its slot. */
  checkTimeoutMs: number;
  /** Whether a passed check's result keeps its exchanges (some reporter of the run reads them: EngineReporter.readsPassedExchanges). */
  passedExchanges: boolean;
  /** Seed of every generated value; per-check fakers derive from it and the requirement ID. */
  seed: string;
  /** Hooks the target answered when probed before the run. */
  capabilities: { clock: boolean; runs: boolean };
  /** How a check changes the JWKS the harness serves (absent when it serves none: no serveJwks). */
  jwksControl?: JwksControl;
  /**
   * The operations the run checks one by one and those it leaves alone, with why (ruling 34), and the
   * description's facts: absent when the profile names neither `"openapi"` nor `"operations"`.
   */
  operations?: OperationPlan;
}

/** A suite file the run's entry imports (suites/support/run-entry.ts), with the checks selected from it. */
export interface SuiteToLoad {
  group: string;
  /** file: URL of the suite module (compiled or source form). */
  url: string;
  ids: string[];
}

/** What one finished check said, before the engine maps it onto the catalogue. */
export interface RawCheckOutcome {
  /** The result key: the requirement ID, or `ID@METHOD path`. */
  id: string;
  state: 'passed' | 'failed' | 'skipped';
  meta?: CheckMeta;
  /** The skip's note (the reason a check gave). */
  note?: string;
  errors: Array<{ name?: string; message: string; code?: unknown }>;
  durationMs: number;
}

/** Where a run's outcomes go (the engine's collector). */
export interface RunSink {
  /** A selected check started (it may still wait for a slot). */
  checkStarted(id: string): void;
  check(outcome: RawCheckOutcome): void;
  /** The run failed outside any check (import error, failing hook): why, as messages. */
  runFailed(errors: string[]): void;
}

/** One run for the suites' scheduler (suites/support/scheduler.ts): the run, its suites and the checks selected. */
export interface ScheduledRun {
  context: RunContext;
  suites: SuiteToLoad[];
  /** Result keys to run; the suites' other checks are not run. */
  ids: readonly string[];
  /** Aborted when the run stops: no check starts after, and the run returns without waiting for the checks in flight. */
  signal?: AbortSignal;
}

/** The suites' scheduler module, as the engine imports it by URL (the engine never imports suites/ statically). */
export interface SuiteSchedulerModule {
  runChecks(run: ScheduledRun, sink: RunSink): Promise<void>;
  /** Ends what the last run left open (its client's sockets). */
  close(): Promise<void>;
}

declare module 'vitest' {
  interface ProvidedContext {
    acRun: RunContext;
    acSuites: SuiteToLoad[];
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
