/**
 * The target's clock for a load run. A conformance run against a target with test hooks may have moved its
 * clock forward (`POST /clock` is for good, test-hooks.md); a load run that signed with local time would then
 * be refused outright (every Webhook-Timestamp outside the ±300 s window). So when the profile declares the
 * hooks, the clock is read once before the requests are built and kept as an offset to local time: the hot
 * path adds a number and sends no request.
 */
import { readTargetClock } from '../client/index.js';
import { isHarnessError } from '../errors.js';
import type { ResolvedProfile } from '../profile/types.js';

export interface TargetClockReading {
  /** Seconds the target's clock is ahead of local time (negative: behind); 0 without a reading. */
  offsetSeconds: number;
  /** Where the times come from, for the report's details. */
  source: 'clock hook' | 'local time';
  /** Why the hook was not used when the profile declares one. */
  note?: string;
}

/** The clock read is a single small request: it gets its own short bound rather than the run's timeout. */
const CLOCK_READ_TIMEOUT_MS = 5_000;

export async function targetClockOffset(profile: ResolvedProfile): Promise<TargetClockReading> {
  if (!profile.hooks) return { offsetSeconds: 0, source: 'local time' };
  try {
    const reading = await readTargetClock(profile, CLOCK_READ_TIMEOUT_MS);
    return { offsetSeconds: reading.target - reading.local, source: 'clock hook' };
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    // Like the suites (TargetClock): a clock hook that does not answer is treated as not offered.
    return { offsetSeconds: 0, source: 'local time', note: `the clock hook did not answer (${error.message}); signing with local time` };
  }
}

/** A readable offset for the report's details, e.g. "+3600.0 s (clock hook)". */
export function describeClock(reading: TargetClockReading): string {
  const sign = reading.offsetSeconds >= 0 ? '+' : '-';
  const offset = `${sign}${Math.abs(reading.offsetSeconds).toFixed(1)} s`;
  return reading.note ? `${offset} (${reading.note})` : `${offset} (${reading.source})`;
}
