/**
 * What a run did to the target's clock. test-hooks.md's `POST /clock` moves it forward for good and offers
 * no way back, so a run cannot put it back; what it can do is say so, with the amount: the clock is read
 * once the preflight found the hook, and again after the last check. The difference between the target's
 * and local elapsed time is what the run's clock-moving checks added (measured, not summed from the
 * checks, so a check cut short by an interrupt is counted for what it did).
 */
import { readTargetClock, type ClockReading } from '../client/index.js';
import { isHarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { ClockMoved } from './types.js';

export type { ClockReading };

/** The end-of-run read is bounded on its own: it runs after the deadline too (a run stopped by it). */
const CLOCK_READ_TIMEOUT_MS = 5_000;
/** Below this the two reads differ by the round trips' noise, not by an advance. */
const NOISE_SECONDS = 2;

/** One read of the clock hook; the caller decides what a failure means. */
export function readClock(profile: ResolvedProfile, timeoutMs = CLOCK_READ_TIMEOUT_MS): Promise<ClockReading> {
  return readTargetClock(profile, timeoutMs);
}

export function clockMovedNote(seconds: number): string {
  return (
    `this run moved the target's clock forward by ${seconds} s; the test-hook contract has no way back: ` +
    'clients that sign with local time (webhook timestamps, JWT iat/exp) will be refused by this target ' +
    "(access-conformance load reads the target's clock and is not)"
  );
}

/** Reads the clock again after the run and compares; undefined when it did not move (beyond noise). */
export async function clockMovedSince(profile: ResolvedProfile, start: ClockReading): Promise<ClockMoved | undefined> {
  let end: ClockReading;
  try {
    end = await readClock(profile);
  } catch (error) {
    const why = isHarnessError(error) ? `${error.code}: ${error.message}` : String(error);
    return {
      note: `clock-moving checks ran, so this run may have moved the target's clock forward; it could not be read at the end (${why}): clients that sign with local time may be refused by this target`,
    };
  }
  const seconds = Math.round(end.target - start.target - (end.local - start.local));
  if (seconds < NOISE_SECONDS) return undefined;
  return { seconds, note: clockMovedNote(seconds) };
}
