/**
 * One run scope from the first line of a command (`run`, `load`, `send`, `serve`): the deadline
 * (--max-duration) or, without it, a bound on start-up, the SIGINT/SIGTERM handlers and the phase the
 * command is in exist before anything else starts, so a hang or an interrupt in any phase (profile, keys,
 * embedded reference, preflight, worker start, checks, reporting) ends the command with its reports written,
 * naming the phase, with 2 (deadline) or 130/143 (a signal).
 *
 * The scope only works while JavaScript runs. A native deadlock freezes the event loop, timers and signal
 * handlers with it, so the CLI runs under a supervising parent (supervisor.ts) that enforces the same
 * deadline and signals from outside; the scope tells it each phase and beats a heartbeat over IPC.
 *
 * Cleanup registrations (`onCleanup`): async finalizers that must run on every way out of the command
 * (a normal end, an error, a deadline, a signal, a forced second signal), each bounded in time, run once,
 * last registered first. E.g. stopping the embedded target, or resetting a target's test-hook clock at the
 * end of every run (i31-gate): register it here rather than in a `finally` that a forced exit skips.
 */
import { debugLine } from '../debug.js';
import { formatDuration } from '../values.js';
import { testStall, testStartUpMs } from './test-stall.js';
import { interruptSignal, stopOnSignals, type InterruptReason } from './signals.js';
import type { StopSignal } from '../errors.js';

/** The phases a command goes through, in order; the supervisor and the reports name them. */
export const RUN_PHASES = [
  'start',
  'profile',
  'state',
  'embedded reference',
  'keys',
  'image',
  'preflight',
  'worker start',
  'checks',
  'load',
  'sending',
  'serving',
  'reporting',
  'cleanup',
] as const;
export type RunPhase = (typeof RUN_PHASES)[number];

/**
 * Without --max-duration, how long a command may take to start (profile, state, embedded reference, keys,
 * image): past it the command stops as at a deadline (exit 2, the phase named). Its own work then has its
 * own bound (run: the engine's default deadline; load: the planned duration; send: the request timeout;
 * serve: none, it serves until stopped). An image adds its --image-startup-timeout.
 */
export const START_UP_MS = 180_000;
/** How long one finalizer may take before the next runs regardless. */
const CLEANUP_MS = 10_000;
/** The heartbeat the supervisor watches: a frozen event loop stops it. */
export const HEARTBEAT_MS = 500;

/** The messages a supervised command sends its parent (supervisor.ts reads them). */
export type SupervisorMessage =
  | { type: 'beat' }
  | { type: 'phase'; phase: RunPhase }
  /** The command's own reports are written (or there are none to write): the parent writes none. */
  | { type: 'reported' };

/** Why a scope stopped: a signal or the deadline, with the phase it stopped in. */
export interface ScopeStop {
  code: 'INTERRUPTED' | 'DEADLINE';
  message: string;
  signal?: StopSignal;
  phase: RunPhase;
}

/** Thrown by `race` when the scope stopped before the work finished. */
export class ScopeStopped extends Error {
  constructor(readonly stop: ScopeStop) {
    super(stop.message);
  }
}

export interface RunScope {
  /** Aborted on a signal or the deadline; its reason is a {@link ScopeStop} (the engine follows it). */
  readonly signal: AbortSignal;
  /** The phase the command is in now. */
  readonly phase: RunPhase;
  /** Enters a phase: told to the supervisor, shown by DEBUG=access-conformance; awaits the test seam. */
  enter(phase: RunPhase): Promise<void>;
  /**
   * The work, or ScopeStopped as soon as the scope stops. `onLate` receives the work's value when it arrives
   * after the stop (a target or a state folder that finished opening must still be closed).
   */
  race<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T>;
  /** Why the scope stopped, once it did. */
  stopped(): ScopeStop | undefined;
  /** Registers an async finalizer run on every way out (see the file comment). */
  onCleanup(name: string, finalizer: () => Promise<void>): void;
  /** Tells the supervisor the command's reports are written, so it writes none of its own. */
  reported(): void;
  /** Whether reported() was called: a late harness error must not overwrite the reports with a short one. */
  readonly hasReported: boolean;
  /** Start-up is over: the start-up bound (`startUpMs`) no longer applies. */
  startedUp(): void;
  /** Runs the finalizers (bounded), removes the handlers and the deadline. Idempotent. */
  close(): Promise<void>;
}

export interface RunScopeOptions {
  /** The command, in messages: "the run", "the load run". */
  what: string;
  maxDurationMs?: number;
  /**
   * A bound on start-up alone, until startedUp() (START_UP_MS; given only without --max-duration): a hang
   * with the event loop free, which no heartbeat reveals, still ends. AC_TEST_START_UP_MS shortens it in tests.
   */
  startUpMs?: number;
  /** What the first signal's line says is being done (default: "stopping <what> and writing the reports"). */
  stopping?: string;
}

/** Sends a message to the supervising parent, when there is one; never throws. */
export function tellSupervisor(message: SupervisorMessage): void {
  if (!process.send || !process.connected) return;
  try {
    process.send(message);
  } catch {
    // The parent is gone; the disconnect handler of supervisedChild() ends this process.
  }
}

export function openRunScope(options: RunScopeOptions): RunScope {
  // The deadline counts from when the user started the command: under the supervisor, from the parent's start.
  const startedAt = Number(process.env.AC_SUPERVISOR_STARTED_AT) > 0 ? Number(process.env.AC_SUPERVISOR_STARTED_AT) : Date.now();
  const controller = new AbortController();
  const finalizers: Array<{ name: string; run: () => Promise<void> }> = [];
  let phase: RunPhase = 'start';
  let closing: Promise<void> | undefined;

  const runFinalizers = async (): Promise<void> => {
    // Last registered first: what started last depends on what started first.
    for (const { name, run } of finalizers.splice(0).reverse()) {
      debugLine('scope', `cleanup: ${name}`);
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          process.stderr.write(`cleanup "${name}" did not finish within ${formatDuration(CLEANUP_MS)}; going on\n`);
          resolve();
        }, CLEANUP_MS);
      });
      await Promise.race([run().catch((error: unknown) => process.stderr.write(`cleanup "${name}" failed: ${error instanceof Error ? error.message : String(error)}\n`)), bound]);
      clearTimeout(timer);
    }
  };
  // The reason carries the phase: the engine passes it through to report.json's `aborted`.
  const scopeController = {
    abort(reason: InterruptReason): void {
      controller.abort({ ...reason, phase } satisfies ScopeStop);
    },
    get signal() {
      return controller.signal;
    },
  } as unknown as AbortController;
  const removeSignals = stopOnSignals(scopeController, options.what, runFinalizers, options.stopping);
  const deadline =
    options.maxDurationMs === undefined
      ? undefined
      : setTimeout(() => {
          const stop: ScopeStop = { code: 'DEADLINE', message: `${options.what} reached its deadline of ${formatDuration(options.maxDurationMs!)} (--max-duration) in phase "${phase}"`, phase };
          debugLine('scope', `deadline in phase ${phase}`);
          controller.abort(stop);
        }, Math.max(0, options.maxDurationMs - (Date.now() - startedAt)));
  // Not unref'd: a command waiting on a promise nothing else keeps alive (a hung phase) must still reach its
  // deadline rather than leave with Node's "unsettled top-level await" (13). close() clears it.
  const startUpMs = options.startUpMs === undefined ? undefined : testStartUpMs() ?? options.startUpMs;
  let startUp =
    startUpMs === undefined
      ? undefined
      : setTimeout(() => {
          const stop: ScopeStop = {
            code: 'DEADLINE',
            message: `${options.what} did not finish starting within ${formatDuration(startUpMs)} (phase "${phase}"); without --max-duration that is the bound on start-up`,
            phase,
          };
          debugLine('scope', `start-up bound in phase ${phase}`);
          controller.abort(stop);
        }, Math.max(0, startUpMs - (Date.now() - startedAt)));
  let hasReported = false;

  const scope: RunScope = {
    signal: controller.signal,
    get phase() {
      return phase;
    },
    async enter(next) {
      phase = next;
      debugLine('scope', `phase: ${next} (+${Date.now() - startedAt} ms)`);
      tellSupervisor({ type: 'phase', phase: next });
      await scope.race(testStall(next));
    },
    async race(work, onLate) {
      const stop = (): ScopeStopped => new ScopeStopped(scope.stopped()!);
      // First: whichever way this ends, the work's rejection must not be unhandled (Node ends the process on
      // one, with exit 1) when the scope has already stopped, and its late value goes to onLate.
      work.then((value) => {
        if (controller.signal.aborted) onLate?.(value);
      }, () => {});
      if (controller.signal.aborted) throw stop();
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(stop());
        controller.signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return await Promise.race([work, aborted]);
      } finally {
        if (onAbort) controller.signal.removeEventListener('abort', onAbort);
      }
    },
    stopped() {
      if (!controller.signal.aborted) return undefined;
      const reason = controller.signal.reason as Partial<ScopeStop>;
      const signal = interruptSignal(controller.signal);
      return {
        code: reason.code === 'DEADLINE' ? 'DEADLINE' : 'INTERRUPTED',
        message: reason.message ?? `${options.what} was interrupted`,
        ...(signal ? { signal } : {}),
        phase: reason.phase ?? phase,
      };
    },
    onCleanup(name, finalizer) {
      finalizers.push({ name, run: finalizer });
    },
    reported() {
      hasReported = true;
      tellSupervisor({ type: 'reported' });
    },
    get hasReported() {
      return hasReported;
    },
    startedUp() {
      if (startUp) clearTimeout(startUp);
      startUp = undefined;
    },
    close() {
      closing ??= (async () => {
        if (deadline) clearTimeout(deadline);
        if (startUp) clearTimeout(startUp);
        await runFinalizers();
        removeSignals();
      })();
      return closing;
    },
  };
  return scope;
}
