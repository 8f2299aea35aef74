/**
 * The one record of why a command stopped, whoever stopped it: a signal (or the npm/npx wrapper's death,
 * which counts as SIGTERM), the deadline, the start-up bound, a target that stopped answering, a harness
 * error. It is the reason a stopped AbortSignal carries, the `aborted` of every report, what the supervisor
 * prints and writes, and what `Stopped` (the race helper's rejection) holds.
 */
import { HarnessError, signalExitCode, type HarnessErrorCode, type StopSignal } from '../errors.js';
import type { Phase } from './phase.js';

export interface StopReason {
  code: HarnessErrorCode;
  message: string;
  /** What the user can do about it, when a harness error said. */
  hint?: string;
  /** Set when SIGINT / SIGTERM stopped it: the exit code is then 130 / 143. */
  signal?: StopSignal;
  /** The phase it stopped in (absent only while a layer that does not know it passes the record on). */
  phase?: Phase;
}

/** Thrown by `untilStopped` (race.ts) when the command stopped before the work finished. */
export class Stopped extends HarnessError {
  constructor(readonly reason: StopReason) {
    super(reason.code, reason.message, reason.hint === undefined ? {} : { hint: reason.hint });
  }
}

export function isStopReason(value: unknown): value is StopReason {
  return typeof value === 'object' && value !== null && typeof (value as StopReason).code === 'string' && typeof (value as StopReason).message === 'string';
}

/** The record a stopped signal carries; a signal stopped without one (an engine's own) reads as interrupted. */
export function stopReasonOf(signal: AbortSignal | undefined): StopReason | undefined {
  if (!signal?.aborted) return undefined;
  return isStopReason(signal.reason) ? signal.reason : { code: 'INTERRUPTED', message: 'stopped' };
}

/** 130 / 143 after a signal; 2 for anything else that stopped a command early. */
export function stopExitCode(reason: StopReason): 130 | 143 | 2 {
  return reason.signal ? signalExitCode(reason.signal) : 2;
}

/** The record of a signal received (or the wrapper's death, as SIGTERM). */
export function signalReason(signal: StopSignal, what: string, phase?: Phase): StopReason {
  return { code: 'INTERRUPTED', message: `${what} was interrupted by ${signal}`, signal, ...(phase ? { phase } : {}) };
}
