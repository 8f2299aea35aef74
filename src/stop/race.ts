/**
 * The one race of work against a stop, for every layer (the run scope's phases, the engine's preflight and
 * worker start, the load driver's set-up): the work's value, or `Stopped` with the signal's record as soon
 * as the signal is aborted.
 */
import { Stopped, stopReasonOf } from './reason.js';

/**
 * `onLate` receives the work's value when it arrives after the stop (a target or a state folder that
 * finished opening must still be closed). Whichever way this ends, the work's own rejection is handled:
 * after a stop nothing awaits it, and Node would end the process on an unhandled one.
 */
export async function untilStopped<T>(work: Promise<T>, signal: AbortSignal | undefined, onLate?: (value: T) => void): Promise<T> {
  if (!signal) return work;
  work.then((value) => {
    if (signal.aborted) onLate?.(value);
  }, () => {});
  const stopped = (): Stopped => new Stopped(stopReasonOf(signal)!);
  if (signal.aborted) throw stopped();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
