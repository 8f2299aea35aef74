import type { EventStore } from '../../reference/types.js';
import type { Tenant } from '../../tenant/types.js';
import { defineFault } from '../support/define.js';
import { errorResponse, header, listenerOf, routeOf } from '../support/http.js';

// The real store, per tenant: the wrapper claims in it before the reference authenticates.
const stores = new WeakMap<Tenant, EventStore>();

export const idempotencyBeforeAuth = defineFault({
  name: 'idempotency-before-auth',
  description: 'Checks and records the event ID before authenticating the request: a forged duplicate gets 409, and a forged request burns its event ID.',
  breaks: ['IDEM-03', 'IDEM-04'],
  ports: (deps, env) => {
    stores.set(env.tenant, deps.eventStore);
    // The reference's own check then always passes: the record was made before it ran.
    const eventStore: EventStore = { claim: () => true, sweep: (now) => deps.eventStore.sweep(now), size: () => deps.eventStore.size() };
    return { eventStore };
  },
  wrap: (handler, env) => async (request) => {
    const route = routeOf(request);
    const eventId = header(request, 'webhook-event-id');
    const store = stores.get(env.tenant);
    if (route.kind === 'webhook' && listenerOf(env.tenant, route.listenerId) && eventId && store) {
      if (!(await store.claim(route.listenerId, eventId.toLowerCase(), env.ports().clock.now()))) {
        return errorResponse(409, 'duplicate_event', 'this event ID was already processed for this listener');
      }
    }
    return handler(request);
  },
});
