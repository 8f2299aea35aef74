/**
 * A load run stopped by SIGINT, SIGTERM or its deadline, as its report says it: read from the stop room's
 * record that the run's signal carries (stop/reason.ts), with the exit code the process ends with. A run
 * interrupted at any point writes a report that says so: while sending, with what was measured; before
 * (starting the embedded target, priming tokens and the corpus), with nothing measured.
 */
import type { StopSignal } from '../errors.js';
import type { Phase } from '../stop/phase.js';
import { stopExitCode, stopReasonOf } from '../stop/reason.js';

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
  step?: Extract<Phase, 'profile' | 'embedded reference' | 'keys'>;
  /** The code the process ends with: 130 / 143 after a signal, 2 otherwise; never 0. */
  exitCode: 130 | 143 | 2;
}

/** The report's view of why `signal` stopped the run (a signal, else the deadline or a harness stop: exit 2). */
export function interruption(signal: AbortSignal | undefined, phase: Interruption['phase'], step?: Interruption['step']): Interruption {
  const reason = stopReasonOf(signal);
  return {
    ...(reason?.signal ? { signal: reason.signal } : {}),
    ...(reason?.code === 'DEADLINE' ? { deadline: true as const } : {}),
    phase,
    ...(phase === 'set-up' && step !== undefined ? { step } : {}),
    exitCode: reason ? stopExitCode(reason) : 2,
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
