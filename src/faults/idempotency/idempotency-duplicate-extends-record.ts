import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { RETENTION } from '../support/events.js';

/** Every claim, the refused duplicates' too, restarts the record's 7 days (a sliding expiry). */
function slidingEventStore(): EventStore {
  const expiries = new Map<string, number>();
  return {
    claim(listenerId, eventId, now) {
      const key = `${listenerId}\n${eventId}`;
      const live = (expiries.get(key) ?? -Infinity) > now;
      expiries.set(key, now + RETENTION);
      return !live;
    },
    sweep(now) {
      let removed = 0;
      for (const [key, expiresAt] of expiries) {
        if (expiresAt <= now) {
          expiries.delete(key);
          removed += 1;
        }
      }
      return removed;
    },
    size: () => expiries.size,
  };
}

export const idempotencyDuplicateExtendsRecord = defineFault({
  name: 'idempotency-duplicate-extends-record',
  description: 'Restarts an event record\'s 7 days on every duplicate (a sliding expiry, like a cache TTL refreshed on read): an ID sent again at day 6 stays refused until day 13.',
  breaks: ['IDEM-X02'],
  ports: () => ({ eventStore: slidingEventStore() }),
});
