import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { RETENTION } from '../support/events.js';

/** Records per listener the faulty cache holds: fewer than the few hundred events IDEM-X01 sends. */
const CAPACITY = 256;

/** An LRU cache of event IDs per listener: the oldest record goes when a new one needs room. */
function lruEventStore(): EventStore {
  const byListener = new Map<string, Map<string, number>>();
  return {
    claim(listenerId, eventId, now) {
      let records = byListener.get(listenerId);
      if (records === undefined) {
        records = new Map();
        byListener.set(listenerId, records);
      }
      const expiresAt = records.get(eventId);
      if (expiresAt !== undefined && expiresAt > now) return false;
      records.delete(eventId);
      records.set(eventId, now + RETENTION);
      if (records.size > CAPACITY) records.delete(records.keys().next().value as string);
      return true;
    },
    sweep(now) {
      let removed = 0;
      for (const records of byListener.values()) {
        for (const [eventId, expiresAt] of records) {
          if (expiresAt <= now) {
            records.delete(eventId);
            removed += 1;
          }
        }
      }
      return removed;
    },
    size: () => [...byListener.values()].reduce((sum, records) => sum + records.size, 0),
  };
}

export const idempotencyLru256 = defineFault({
  name: 'idempotency-lru-256',
  description: `Keeps event records in an LRU cache of ${CAPACITY} per listener: after a few hundred other events a duplicate is accepted and runs again.`,
  breaks: ['IDEM-X01'],
  ports: () => ({ eventStore: lruEventStore() }),
});
