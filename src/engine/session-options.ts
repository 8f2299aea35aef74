/**
 * What an engine session is opened with (`SessionSettings`), what each of its runs is given
 * (`SessionRunOptions`) and the phases it names: apart from session.ts because the session's small parts
 * (session-parts.ts), which session.ts imports, read them too.
 */
import type { ClientSettings } from '../client/settings.js';
import type { Phase } from '../stop/phase.js';
import type { RunContext } from './check-meta.js';
import type { EngineReporter, SelectionInput } from './types.js';

/** What a session keeps from run to run: one suite thread, so one bound on checks in flight and one client setting. */
export interface SessionSettings {
  /** Checks in flight at once, all groups together (one suite worker thread). */
  concurrency: number;
  /**
   * How the suites' client talks to the target, untouched from the option values to createTargetClient; the
   * engine reads only the timeout (preflight, a check's limit, the default deadline).
   */
  client: ClientSettings & { timeoutMs: number };
}

/** One run of a session: the target and everything that may change from one target to the next. */
export interface SessionRunOptions {
  profile: RunContext['profile'];
  selection: SelectionInput;
  /** Printed in the header; every generated value comes from it, scoped by the check's ID. */
  seed: string;
  /** SHOULD failures fail the run. */
  strict: boolean;
  /** Expected-failure IDs (already loaded; see loadBaseline). */
  baseline?: { source: string; ids: string[] };
  reporters: EngineReporter[];
  /**
   * Whether a passed check's result keeps the exchanges it made. Default: when some reporter reads them
   * (EngineReporter.readsPassedExchanges), or when there is none (the caller reads the summary itself).
   */
  passedExchanges?: boolean;
  /** Shown in the header when the harness started the target itself. */
  targetDescription?: string;
  /**
   * Operations the user names to be called although ruling 35's rules leave them in doubt (`run
   * --allow-operation`): `METHOD path` or an operation ID. Never read from the profile or the description.
   */
  allowOperations?: readonly string[];
  /**
   * `run --partial`: an operation the profile's scope does not name whose valid first call answers 404 or
   * 501 is reported not implemented (its checks neither pass nor fail) instead of failed (scope.ts).
   */
  partial?: boolean;
  /** Interval of heartbeat events while a group runs long; default 15 s. */
  heartbeatMs?: number;
  /** Deadline of the whole run; default derived from the selection and the timeout (defaultMaxDurationMs). */
  maxDurationMs?: number;
  /** Requests in a row that time out, cannot connect or are rate-limited before the run gives up; 0 never. Default 5. */
  maxConsecutiveFailures?: number;
  /** Operations the run may check one by one (ruling 34); more stops it before its first check. Default DEFAULT_MAX_OPERATIONS. */
  maxOperations?: number;
  /** Aborting it stops the run (reports still written); a `RunAbort` reason is kept (the CLI's signals). */
  interrupt?: AbortSignal;
  /**
   * True when `interrupt` already carries the deadline `maxDurationMs` (the CLI's run scope, counted from the
   * command's start): the engine then arms no deadline of its own for it, and only shows it in the header.
   * A default deadline (no `maxDurationMs`) is always the engine's.
   */
  deadlineByCaller?: boolean;
  /**
   * Address the harness's JWKS servers listen on instead of their URL's host: for a container behind a
   * mapped port, whose JWKS URL names host.docker.internal (not a name this machine can bind), the address
   * that name stands for when it is this machine's, else `0.0.0.0` (containers/image-target.ts).
   */
  jwksListenHost?: string;
  /**
   * Told as the run enters each phase (the CLI's run scope names it to its supervisor and in the report of
   * a run that stops there); awaited, and bounded by the run's deadline and interruption.
   */
  onPhase?: (phase: EnginePhase) => Promise<void> | void;
}

/** The phases of a run inside the engine, in order. */
export type EnginePhase = Extract<Phase, 'preflight' | 'worker start' | 'checks' | 'reporting'>;
