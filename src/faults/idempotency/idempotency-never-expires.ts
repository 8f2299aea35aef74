import { createMemoryEventStore } from '../../reference/event-store.js';
import { defineFault } from '../support/define.js';

export const idempotencyNeverExpires = defineFault({
  name: 'idempotency-never-expires',
  description: 'Never forgets an event record: an event ID is refused as a duplicate long after the 7 days.',
  breaks: ['IDEM-08'],
  ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: Number.POSITIVE_INFINITY }) }),
});
