/**
 * A load run stopped by SIGINT or SIGTERM: which signal (the CLI aborts the run's signal with a reason that
 * names it), the exit code the process ends with, and the set-up wait that a signal cuts short. A run
 * interrupted at any point writes a report that says so: while sending, with what was measured; before
 * (starting the embedded target, priming tokens and the corpus), with nothing measured.
 */
import { HarnessError, signalExitCode, type StopSignal } from '../errors.js';

export interface Interruption {
  /** The signal, when one stopped the run (an abort without a named signal is a harness stop). */
  signal?: StopSignal;
  /** True when the run's own deadline (--max-duration) stopped it: exit 2, as `run`'s DEADLINE. */
  deadline?: true;
  /** Sending: partial figures; set-up: nothing was measured. */
  phase: 'set-up' | 'sending';
  /**
   * The step of set-up it was in, as the run scope and its supervisor name it: the target's `profile` or
   * the `embedded reference` starting, `keys` while tokens and bodies are primed (absent when sending).
   */
  step?: 'profile' | 'embedded reference' | 'keys';
  /** The code the process ends with: 130 / 143 after a signal, 2 otherwise; never 0. */
  exitCode: 130 | 143 | 2;
}

/** The signal named by an abort reason `{ signal: 'SIGINT' | 'SIGTERM' }` (the CLI's), if any. */
export function signalOf(signal: AbortSignal | undefined): StopSignal | undefined {
  const named = (signal?.reason as { signal?: unknown } | undefined)?.signal;
  return named === 'SIGINT' || named === 'SIGTERM' ? named : undefined;
}

export function interruption(signal: AbortSignal | undefined, phase: Interruption['phase'], step?: Interruption['step']): Interruption {
  const named = signalOf(signal);
  const deadline = (signal?.reason as { code?: unknown } | undefined)?.code === 'DEADLINE';
  return {
    ...(named ? { signal: named } : {}),
    ...(deadline ? { deadline: true as const } : {}),
    phase,
    ...(phase === 'set-up' && step !== undefined ? { step } : {}),
    exitCode: named ? signalExitCode(named) : 2,
  };
}

/** One sentence for the console and the HTML page. */
export function describeInterruption(value: Interruption): string {
  const by = value.signal ? ` by ${value.signal}` : value.deadline ? ' at its deadline (--max-duration)' : '';
  const what = value.step === 'keys' ? 'tokens, bodies' : value.step === 'profile' ? 'loading the profile' : value.step === 'embedded reference' ? 'starting the embedded reference' : 'starting the target, tokens, bodies';
  return value.phase === 'set-up'
    ? `interrupted${by} while priming (${what}); nothing measured (exit ${value.exitCode})`
    : `interrupted${by} while sending: partial results; requests in flight were given time to finish, the rest counted as cancelled by the harness (exit ${value.exitCode})`;
}

/** Thrown by `untilInterrupted`: the run's set-up was cut short. */
export class SetUpInterrupted extends HarnessError {
  constructor() {
    super('INTERRUPTED', 'the load run was interrupted while it prepared (priming, tokens); nothing was measured');
  }
}

/**
 * The set-up step, or SetUpInterrupted as soon as the signal fires. `onLate` receives the step's value if
 * it arrives after the interruption (an embedded target that finished starting must still be stopped).
 */
export async function untilInterrupted<T>(promise: Promise<T>, signal: AbortSignal | undefined, onLate?: (value: T) => void): Promise<T> {
  if (!signal) return promise;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new SetUpInterrupted());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.then((value) => {
    if (signal.aborted) onLate?.(value);
  }, () => {});
  try {
    return await Promise.race([promise, stopped]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
