import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const idempotencyMissing = defineFault({
  name: 'idempotency-missing',
  description: 'Keeps no event records: every request with a valid signature is accepted and runs, duplicates included.',
  breaks: ['IDEM-01', 'IDEM-05', 'IDEM-06', 'IDEM-07', 'IDEM-09', 'IDEM-10', 'IDEM-11', 'RUN-06'],
  ports: () => {
    const eventStore: EventStore = { claim: () => true, sweep: () => 0, size: () => 0 };
    return { eventStore };
  },
});
