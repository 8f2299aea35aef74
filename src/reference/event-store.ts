/**
 * In-memory idempotency records (service.md §2.6, §6 rule 2; ruling 18).
 *
 * One Map from `<listenerId>\n<eventId>` to the record's expiry (a number, not an object: the smallest
 * entry V8 offers). `claim` is synchronous, so two requests racing on the same event ID in one process
 * cannot both see "absent": exactly one wins. Every record lives for the same retention period and the
 * clock never moves back, so Map insertion order is expiry order: sweeping walks from the front and stops
 * at the first live record, costing only what it removes.
 */
import { sweepExpiredFront } from './expiry.js';
import type { EventStore } from './types.js';
import { EVENT_RETENTION_SECONDS } from '../spec-numbers.js';

export interface MemoryEventStoreOptions {
  retentionSeconds?: number;
  /** Records swept from the front on each claim: keeps memory bounded without a timer. */
  sweepPerClaim?: number;
}

export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const retention = options.retentionSeconds ?? EVENT_RETENTION_SECONDS;
  const sweepPerClaim = options.sweepPerClaim ?? 4;
  const expiries = new Map<string, number>();

  const sweepFront = (now: number, max: number): number => sweepExpiredFront(expiries, now, max, (expiresAt) => expiresAt);

  return {
    claim(listenerId, eventId, now) {
      sweepFront(now, sweepPerClaim);
      const key = `${listenerId}\n${eventId}`;
      const expiresAt = expiries.get(key);
      if (expiresAt !== undefined && expiresAt > now) return false;
      // Re-inserting an expired key moves it to the back, keeping insertion order = expiry order.
      if (expiresAt !== undefined) expiries.delete(key);
      expiries.set(key, now + retention);
      return true;
    },
    sweep(now) {
      return sweepFront(now, Number.POSITIVE_INFINITY);
    },
    size() {
      return expiries.size;
    },
  };
}
