import { createMemoryEventStore } from '../../reference/event-store.js';
import { defineFault } from '../../faults/support/define.js';
import { DAY, RETENTION } from '../../faults/support/events.js';
import { defineVariant } from '../define.js';

/** DynamoDB deletes expired items "typically within a few days"; until then a conditional put still sees them. */
const DELETION_LAG = 2 * DAY;

export const idempotencyLazyTtl = defineVariant(
  { area: 'idempotency', stacks: 'DynamoDB TTL (expired items are deleted lazily, within days) behind a conditional put', touches: ['IDEM-07'] },
  defineFault({
    name: 'idempotency-lazy-ttl',
    description: 'Keeps event records 7 days but deletes them lazily, up to two days later: an event ID sent again just after its 7 days may still get 409.',
    breaks: ['IDEM-08', 'IDEM-X02'],
    ports: () => ({ eventStore: createMemoryEventStore({ retentionSeconds: RETENTION + DELETION_LAG }) }),
  }),
);
