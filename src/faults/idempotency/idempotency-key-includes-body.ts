import { createHash } from 'node:crypto';
import type { EventStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { createScope, scopeOf } from '../support/events.js';
import { routeOf } from '../support/http.js';

const scope = createScope();

export const idempotencyKeyIncludesBody = defineFault({
  name: 'idempotency-key-includes-body',
  description: 'Keys event records by event ID and a hash of the body: the same event ID with another body (and a JWT duplicate whose body differs) is taken for a new event.',
  breaks: ['IDEM-09', 'IDEM-10'],
  ports: (deps) => {
    const inner = deps.eventStore;
    const eventStore: EventStore = {
      claim: (listenerId, eventId, now) => {
        const body = scope.getStore()?.body ?? Buffer.alloc(0);
        return inner.claim(listenerId, `${eventId}#${createHash('sha256').update(body).digest('hex')}`, now);
      },
      sweep: (now) => inner.sweep(now),
      size: () => inner.size(),
    };
    return { eventStore };
  },
  wrap: (handler) => async (request) => {
    const route = routeOf(request);
    return route.kind === 'webhook' ? scope.run(scopeOf(request, route.listenerId), () => handler(request)) : handler(request);
  },
});
