/**
 * In-memory idempotency records (service.md §2.6, §6 rule 2; ruling 18).
 *
 * One Map per listener from the event ID to the record's expiry (a number, not an object: the smallest
 * entry V8 offers; the key is the event ID as received, with no listener prefix concatenated per request).
 * `claim` is synchronous, so two requests racing on the same event ID in one process cannot both see
 * "absent": exactly one wins. Every record lives for the same retention period and the clock never moves
 * back, so a Map's insertion order is expiry order: sweeping walks from the front and stops at the first
 * live record, costing only what it removes, and a claim made before the front record expires walks
 * nothing at all.
 */
import { sweepExpiredFront } from './expiry.js';
import type { EventStore } from './types.js';
import { EVENT_RETENTION_SECONDS } from '../spec-numbers.js';

export interface MemoryEventStoreOptions {
  retentionSeconds?: number;
  /** Records swept from the front of the listener's records on each claim: memory bounded without a timer. */
  sweepPerClaim?: number;
}

/** One listener's records, oldest first, and when the oldest expires (a claim before then sweeps nothing). */
interface ListenerRecords {
  readonly expiries: Map<string, number>;
  /** The expiry of the front record; Infinity when there is none. Never later than the true front's. */
  front: number;
}

/** Removes up to `max` expired records from the front (expiry.ts), then notes the new front's expiry. */
function sweepFront(records: ListenerRecords, now: number, max: number): number {
  const removed = sweepExpiredFront(records.expiries, now, max, (expiresAt) => expiresAt);
  const first = records.expiries.values().next();
  records.front = first.done === true ? Number.POSITIVE_INFINITY : first.value;
  return removed;
}

export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const retention = options.retentionSeconds ?? EVENT_RETENTION_SECONDS;
  const sweepPerClaim = options.sweepPerClaim ?? 4;
  const listeners = new Map<string, ListenerRecords>();

  return {
    claim(listenerId, eventId, now) {
      let records = listeners.get(listenerId);
      if (records === undefined) {
        records = { expiries: new Map(), front: Number.POSITIVE_INFINITY };
        listeners.set(listenerId, records);
      }
      if (now >= records.front) sweepFront(records, now, sweepPerClaim);
      const { expiries } = records;
      const expiresAt = expiries.get(eventId);
      if (expiresAt !== undefined && expiresAt > now) return false;
      // Re-inserting an expired key moves it to the back, keeping insertion order = expiry order (the front
      // may then name a record that went: earlier than the true one, which only costs a sweep).
      if (expiresAt !== undefined) expiries.delete(eventId);
      expiries.set(eventId, now + retention);
      if (expiries.size === 1) records.front = now + retention;
      return true;
    },
    sweep(now) {
      let removed = 0;
      for (const records of listeners.values()) removed += sweepFront(records, now, Number.POSITIVE_INFINITY);
      return removed;
    },
    size() {
      let size = 0;
      for (const records of listeners.values()) size += records.expiries.size;
      return size;
    },
  };
}
