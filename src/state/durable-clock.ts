/**
 * The reference's clock, kept across restarts: "7 days by its clock" must hold for a serve started again,
 * so the offset the clock hook added is kept (written when it moves), and so is a floor: the clock's time
 * at each group commit. A restarted clock starts at wall time plus the kept offset and never below the
 * floor, so a record's expiry, written in the clock's seconds, keeps its meaning after a restart even if the
 * wall clock stepped back meanwhile.
 */
import { createClock } from '../reference/clock.js';
import type { Clock } from '../reference/types.js';

export interface KeptClock {
  /** Seconds the clock hook added, in total. */
  offset: number;
  /** The latest time the clock showed at a commit. */
  floor: number;
}

export function createDurableClock(kept: KeptClock, keepOffset: (offset: number) => void, wallSeconds?: () => number): Clock {
  const inner = createClock(wallSeconds);
  let offset = kept.offset;
  if (offset > 0) inner.advance(offset);
  return {
    now: () => Math.max(inner.now(), kept.floor),
    advance(seconds) {
      inner.advance(seconds);
      offset += seconds;
      keepOffset(offset);
    },
  };
}
