/**
 * Ctrl-C or SIGTERM during `run` or `load` (a CI job timeout sends SIGTERM): the first signal aborts the
 * command's controller with `{ code: 'INTERRUPTED', message, signal }`; the command stops, writes its
 * reports (which say interrupted) and ends with 130 / 143. A second signal, or reports that take too long,
 * stop the target (`close`) and end the process at once with the same code.
 */
import { signalExitCode, type StopSignal } from '../errors.js';
import { claimSignals } from './early-signals.js';

/** How long an interrupted command may take to write its reports before the process is ended anyway. */
const SIGNAL_REPORT_MS = 20_000;
/** How long a forced stop waits for the target (a container, the embedded reference) to stop. */
const SIGNAL_CLOSE_MS = 15_000;

export interface InterruptReason {
  code: 'INTERRUPTED';
  message: string;
  signal: StopSignal;
}

/** The reason an interrupt controller was aborted with, when a signal did it. */
export function interruptSignal(signal: AbortSignal): StopSignal | undefined {
  const reason = signal.reason as Partial<InterruptReason> | undefined;
  return signal.aborted && (reason?.signal === 'SIGINT' || reason?.signal === 'SIGTERM') ? reason.signal : undefined;
}

/**
 * Installs the handlers; returns their removal. `what` names the command in messages ("the run", "the load
 * run"); `close` stops what must not outlive a forced exit.
 */
export function stopOnSignals(interrupt: AbortController, what: string, close: () => Promise<void>, stopping = `stopping ${what} and writing the reports`): () => void {
  let forced = false;
  const force = (signal: StopSignal): void => {
    if (forced) return;
    forced = true;
    remove();
    const timer = setTimeout(() => process.exit(signalExitCode(signal)), SIGNAL_CLOSE_MS);
    void close()
      .catch((error: unknown) => {
        // The process is about to end either way; what could not be stopped (a container) must be said.
        process.stderr.write(`could not stop the target cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
      })
      .finally(() => {
        clearTimeout(timer);
        process.exit(signalExitCode(signal));
      });
  };
  const handler = (received: NodeJS.Signals): void => {
    const signal: StopSignal = received === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    if (interrupt.signal.aborted) {
      force(interruptSignal(interrupt.signal) ?? signal);
      return;
    }
    process.stderr.write(`\n${signal}: ${stopping} (${signal} again to quit at once)...\n`);
    const reason: InterruptReason = { code: 'INTERRUPTED', message: `${what} was interrupted by ${signal}`, signal };
    interrupt.abort(reason);
    // Reports that hang must not hold a CI job past its own timeout.
    setTimeout(() => force(signal), SIGNAL_REPORT_MS).unref();
  };
  const remove = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  // Ours are in place: the entry's "end at once" handler goes now, not before (early-signals.ts).
  claimSignals();
  return remove;
}
