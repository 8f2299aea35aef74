/** Bounded memory without a timer: the stores drop expired records from the front of their insertion order. */

/**
 * Removes up to `max` records from the front of `records` (insertion order) while they have expired at
 * `now`; stops at the first live one. Returns how many it removed.
 */
export function sweepExpiredFront<V>(records: Map<string, V>, now: number, max: number, expiresAt: (record: V) => number): number {
  let removed = 0;
  for (const [key, record] of records) {
    if (removed >= max || expiresAt(record) > now) break;
    records.delete(key);
    removed += 1;
  }
  return removed;
}
