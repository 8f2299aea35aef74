/**
 * A stop of one piece of work inside a command: a run of the engine, a load run's halt. Its signal is the
 * run scope's signal it follows (SIGINT / SIGTERM, --max-duration, the start-up bound), joined once by
 * `AbortSignal.any` with the work's own stops: `stop(reason)` (a run giving up on a target that stopped
 * answering, a harness error, a crossed load threshold) and `deadline(ms)` (an `AbortSignal.timeout` bound,
 * set again when the work learns how long it may take: the engine's default deadline once it knows the
 * operations). A library caller with no scope gets the same from here, so no module outside src/stop makes
 * a controller of its own.
 *
 * Node 20: `AbortSignal.any` over a long-lived signal keeps every signal composed with it alive, so this is
 * for run-level work (one per run, one per halt), never one per request.
 */
import { stopReasonOf, type StopReason } from './reason.js';

export interface StopSource {
  /** Aborted by the followed signal, `stop()` or the deadline; its reason is the StopReason given. */
  readonly signal: AbortSignal;
  /** Why it stopped (the followed signal's record when that came first), once it did. */
  reason(): StopReason | undefined;
  /**
   * Stops the work; the first stop wins. Without a reason it is a halt that is no harness stop (a load
   * threshold crossed, which its report names): the signal is read for the moment, not for why.
   */
  stop(reason?: StopReason): void;
  /** Bounds the work at `ms` from now, replacing the bound set before; `reason` is made when it fires. */
  deadline(ms: number, reason: () => StopReason): void;
  /** The work ended: the deadline no longer applies. */
  close(): void;
}

export function openStop(follow?: AbortSignal): StopSource {
  const own = new AbortController();
  const signal = follow === undefined ? own.signal : AbortSignal.any([follow, own.signal]);
  let bound: { timeout: AbortSignal; fire: () => void } | undefined;
  const close = (): void => {
    bound?.timeout.removeEventListener('abort', bound.fire);
    bound = undefined;
  };
  const stop = (reason?: StopReason): void => {
    close();
    if (!signal.aborted) own.abort(reason);
  };
  return {
    signal,
    reason: () => stopReasonOf(signal),
    stop,
    deadline(ms, reason) {
      close();
      if (signal.aborted) return;
      // The timeout is held here (not only by its listener): a bound nobody references may be collected
      // before it fires.
      const timeout = AbortSignal.timeout(Math.max(0, ms));
      const fire = (): void => stop(reason());
      timeout.addEventListener('abort', fire, { once: true });
      bound = { timeout, fire };
    },
    close,
  };
}
