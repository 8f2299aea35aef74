import { createMemoryEventStore } from '../../reference/event-store.js';
import { defineFault } from '../support/define.js';
import { DAY } from '../support/events.js';

export const idempotencyTtl1Day = defineFault({
  name: 'idempotency-ttl-1-day',
  description: 'Keeps event records for 1 day instead of 7: a duplicate 6 days later is accepted and runs again.',
  breaks: ['IDEM-07'],
  ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: DAY }) }),
});
