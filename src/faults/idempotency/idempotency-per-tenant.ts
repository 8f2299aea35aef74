import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const idempotencyPerTenant = defineFault({
  name: 'idempotency-per-tenant',
  description: 'Keys event records by event ID alone, for the whole tenant: the same ID on another listener is taken for a duplicate.',
  breaks: ['IDEM-02'],
  ports: (deps) => {
    const inner = deps.eventStore;
    const eventStore: EventStore = {
      claim: (_listenerId, eventId, now) => inner.claim('*', eventId, now),
      sweep: (now) => inner.sweep(now),
      size: () => inner.size(),
    };
    return { eventStore };
  },
});
