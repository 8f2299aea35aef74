/**
 * The run scope, from the first line of `run`, `load`, `send` and `serve`: the deadline (--max-duration) or,
 * without it, a bound on start-up, the signal handlers and the phase the command is in exist before
 * anything else starts, so a hang or an interrupt in any phase ends the command with its reports written,
 * naming the phase, with 2 (deadline) or 130 / 143 (a signal).
 *
 * Its `signal` is Node's own: `AbortSignal.any` of the signals' controller and two bounds made from
 * `AbortSignal.timeout` (the deadline, and the start-up bound that `startedUp()` retires). Each source aborts
 * with a `StopReason` naming the phase it found, and `AbortSignal.any` hands that record on as the reason,
 * so the engine and the load driver read why from the signal itself (reason.ts `stopReasonOf`).
 *
 * The scope works only while JavaScript runs; the supervisor (supervisor.ts) enforces the same from
 * outside when the main thread cannot run, and the scope tells it the bounds, the phases and when the
 * reports are written.
 *
 * Cleanup (`onCleanup`): async finalizers run on every way out (a normal end, an error, a deadline, a
 * signal, a forced second signal), each bounded, once, last registered first: stopping the embedded target,
 * closing a state folder. Registered here rather than in a `finally` that a forced exit skips; they join the
 * process's one list (finalizers.ts), where a started container registers its removal too.
 */
import { debugLine } from '../debug.js';
import { formatDuration } from '../values.js';
import { signalExitCode, type StopSignal } from '../errors.js';
import type { Phase } from './phase.js';
import { registerFinalizer, runFinalizers } from './finalizers.js';
import { untilStopped } from './race.js';
import { signalReason, stopReasonOf, type StopReason } from './reason.js';
import { onStopSignals } from './signals.js';
import { supervisedSince, tellSupervisor } from './supervised-child.js';
import { testStall, testStartUpMs } from './test-hooks.js';
import { stopMs } from './timings.js';

export interface RunScope {
  /** Aborted on a signal, the wrapper's death, the deadline or the start-up bound; its reason is a StopReason. */
  readonly signal: AbortSignal;
  /** The phase the command is in now. */
  readonly phase: Phase;
  /** Enters a phase: told to the supervisor, shown by DEBUG=access-conformance; awaits the test hook. */
  enter(phase: Phase): Promise<void>;
  /** Why the scope stopped, once it did. */
  stopped(): StopReason | undefined;
  /** Registers an async finalizer run on every way out (see the file comment). */
  onCleanup(name: string, finalizer: () => Promise<void>): void;
  /** Tells the supervisor the command's reports are written, so it writes none of its own. */
  reported(): void;
  /** Whether reported() was called: a late harness error must not overwrite the reports with a short one. */
  readonly hasReported: boolean;
  /** Start-up is over: the start-up bound no longer applies. */
  startedUp(): void;
  /** Runs the finalizers (bounded), removes the handlers and the bounds. Idempotent. */
  close(): Promise<void>;
}

export interface RunScopeOptions {
  /** The command, in messages: "the run", "the load run". */
  what: string;
  maxDurationMs?: number;
  /** Bound start-up alone, until startedUp() (given only without --max-duration); `extraMs` adds to it (an image's start). */
  startUp?: { extraMs?: number };
  /** What the first signal's line says is being done (default: "stopping <what> and writing the reports"). */
  stopping?: string;
  /** Where the supervisor writes report.json if it must end the command (run and load). */
  reportDir?: string;
}

/** A bound that aborts with the record `reason()` makes when it fires, unless cancelled first. */
function bound(ms: number, reason: () => StopReason): { signal: AbortSignal; cancel: () => void } {
  const controller = new AbortController();
  const timeout = AbortSignal.timeout(Math.max(0, ms));
  const fire = (): void => controller.abort(reason());
  timeout.addEventListener('abort', fire, { once: true });
  return { signal: controller.signal, cancel: () => timeout.removeEventListener('abort', fire) };
}

export function openRunScope(options: RunScopeOptions): RunScope {
  // The deadline counts from when the user started the command: under the supervisor, from the parent's start.
  const startedAt = supervisedSince() ?? Date.now();
  const elapsed = (): number => Date.now() - startedAt;
  let phase: Phase = 'start';
  let hasReported = false;
  let closing: Promise<void> | undefined;

  const interrupts = new AbortController();
  const deadline =
    options.maxDurationMs === undefined
      ? undefined
      : bound(options.maxDurationMs - elapsed(), () => ({
          code: 'DEADLINE',
          message: `${options.what} reached its deadline of ${formatDuration(options.maxDurationMs!)} (--max-duration) in phase "${phase}"`,
          phase,
        }));
  const startUpMs = options.startUp === undefined ? undefined : (testStartUpMs() ?? stopMs('startUp')) + (options.startUp.extraMs ?? 0);
  const startUp =
    startUpMs === undefined
      ? undefined
      : bound(startUpMs - elapsed(), () => ({
          code: 'DEADLINE',
          message: `${options.what} did not finish starting within ${formatDuration(startUpMs)} (phase "${phase}"); without --max-duration that is the bound on start-up`,
          phase,
        }));
  const signal = AbortSignal.any([interrupts.signal, ...(deadline ? [deadline.signal] : []), ...(startUp ? [startUp.signal] : [])]);
  signal.addEventListener('abort', () => debugLine('scope', `stopped in phase ${phase}: ${stopReasonOf(signal)?.message}`), { once: true });
  // AbortSignal.timeout does not hold the process open (by design): the scope does, until it closes, so a
  // phase awaiting a promise nothing else holds still reaches its bound instead of Node's exit 13.
  const hold = setInterval(() => {}, 1 << 30);

  // A second signal, or reports that take too long: the finalizers (bounded), then the exit at once.
  let forced = false;
  const force = (received: StopSignal): void => {
    if (forced) return;
    forced = true;
    removeSignals();
    // The first signal's code; after a deadline, the signal that forced the exit.
    const code = signalExitCode(stopReasonOf(signal)?.signal ?? received);
    const exit = (): never => process.exit(code);
    setTimeout(exit, stopMs('forcedClose'));
    void runFinalizers(stopReasonOf(signal)?.signal ?? received).finally(exit);
  };
  const removeSignals = onStopSignals(
    (received, count) => {
      if (count > 1 || signal.aborted) return force(received);
      process.stderr.write(`\n${received}: ${options.stopping ?? `stopping ${options.what} and writing the reports`} (${received} again to quit at once)...\n`);
      interrupts.abort(signalReason(received, options.what, phase));
      setTimeout(() => force(received), stopMs('reportAfterStop')).unref();
    },
  );
  tellSupervisor({ type: 'bounds', ...(options.maxDurationMs === undefined ? {} : { maxDurationMs: options.maxDurationMs }), ...(options.reportDir === undefined ? {} : { reportDir: options.reportDir }) });

  const scope: RunScope = {
    signal,
    get phase() {
      return phase;
    },
    async enter(next) {
      phase = next;
      debugLine('scope', `phase: ${next} (+${elapsed()} ms)`);
      tellSupervisor({ type: 'phase', phase: next });
      await untilStopped(testStall(next), signal);
    },
    stopped: () => stopReasonOf(signal),
    onCleanup(name, finalizer) {
      registerFinalizer(name, finalizer);
    },
    reported() {
      hasReported = true;
      tellSupervisor({ type: 'reported' });
    },
    get hasReported() {
      return hasReported;
    },
    startedUp() {
      startUp?.cancel();
    },
    close() {
      closing ??= (async () => {
        deadline?.cancel();
        startUp?.cancel();
        await runFinalizers(stopReasonOf(signal)?.signal);
        removeSignals();
        clearInterval(hold);
      })();
      return closing;
    },
  };
  return scope;
}
