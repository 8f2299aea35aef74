/**
 * The reference's clock: wall time plus an offset that only grows. The clock hook advances it; nothing
 * else moves it, so every rule (timestamps, token expiry, event retention, credential lifespan) sees one time.
 */
import type { Clock } from './types.js';

export function createClock(wallSeconds: () => number = () => Date.now() / 1000): Clock {
  let offset = 0;
  // Wall time may step backwards (NTP); the clock the rules see never does.
  let last = -Infinity;
  return {
    now() {
      const value = Math.max(wallSeconds() + offset, last);
      last = value;
      return value;
    },
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds <= 0) throw new RangeError('advance needs a finite number of seconds > 0');
      offset += seconds;
    },
  };
}
