import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const idempotencyHmacOnly = defineFault({
  name: 'idempotency-hmac-only',
  description: 'Records event IDs only for HMAC listeners: on a JWT listener a duplicate is accepted and runs again.',
  breaks: ['IDEM-10'],
  ports: (deps, env) => {
    const inner = deps.eventStore;
    const jwtListeners = new Set(Object.values(env.tenant.listeners).filter((l) => l.config.method === 'JWT').map((l) => l.listenerId));
    const eventStore: EventStore = {
      claim: (listenerId, eventId, now) => (jwtListeners.has(listenerId) ? true : inner.claim(listenerId, eventId, now)),
      sweep: (now) => inner.sweep(now),
      size: () => inner.size(),
    };
    return { eventStore };
  },
});
