import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { RETENTION } from '../support/events.js';

/** The round trip to a remote store between the read and the write. */
const GAP_MS = 250;

export const idempotencyRacyClaim = defineFault({
  name: 'idempotency-racy-claim',
  description: `Claims event IDs check-then-set across an await (${GAP_MS} ms to a remote store): duplicates arriving together all see "new", and all run.`,
  breaks: ['IDEM-05', 'IDEM-06'],
  ports: () => {
    const expiries = new Map<string, number>();
    const eventStore: EventStore = {
      async claim(listenerId, eventId, now) {
        const key = `${listenerId}\n${eventId}`;
        const known = expiries.get(key);
        if (known !== undefined && known > now) return false;
        await sleep(GAP_MS);
        expiries.set(key, now + RETENTION);
        return true;
      },
      sweep(now) {
        let removed = 0;
        for (const [key, expiresAt] of expiries) if (expiresAt <= now && expiries.delete(key)) removed += 1;
        return removed;
      },
      size: () => expiries.size,
    };
    return { eventStore };
  },
});
