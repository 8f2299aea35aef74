import type { EventStore, Runner } from '../../reference/types.js';
import { defineFault } from '../support/define.js';
import { createScope, parsedBody, scopeOf } from '../support/events.js';
import { routeOf } from '../support/http.js';

const scope = createScope();

export const runBeforeIdempotencyCheck = defineFault({
  name: 'run-before-idempotency-check',
  description: 'Starts the automation before it checks the event ID: a duplicate still gets 409, but it has already run again.',
  breaks: ['RUN-06', 'IDEM-06'],
  ports: (deps) => {
    const { eventStore: store, runner: inner, clock } = deps;
    const eventStore: EventStore = {
      claim: async (listenerId, eventId, now) => {
        const current = scope.getStore();
        const body = current && parsedBody(current.body);
        if (current && body) {
          current.ran = true;
          await inner.run({ listenerId, eventId: current.eventId, context: body.value, at: clock.now() });
        }
        return store.claim(listenerId, eventId, now);
      },
      sweep: (now) => store.sweep(now),
      size: () => store.size(),
    };
    // The reference's run after a successful claim: already done above.
    const runner: Runner = { run: (run) => (scope.getStore()?.ran ? undefined : inner.run(run)), list: (id) => inner.list(id) };
    return { eventStore, runner };
  },
  wrap: (handler) => async (request) => {
    const route = routeOf(request);
    return route.kind === 'webhook' ? scope.run(scopeOf(request, route.listenerId), () => handler(request)) : handler(request);
  },
});
