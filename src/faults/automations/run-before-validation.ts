import type { Runner } from '../../reference/types.js';
import type { Tenant } from '../../tenant/types.js';
import { defineFault } from '../support/define.js';
import { parsedBody } from '../support/events.js';
import { header, listenerOf, routeOf } from '../support/http.js';

// Per tenant: the events the wrapper already started (the reference's own run of them is skipped) and the
// real runner it starts them with.
const started = new WeakMap<Tenant, { early: Set<string>; inner: Runner }>();

export const runBeforeValidation = defineFault({
  name: 'run-before-validation',
  description: 'Starts the automation as soon as a JSON request arrives, then validates it: refused requests (401, 400, inactive automation) have already run.',
  breaks: ['RUN-05', 'RUN-07', 'RUN-08'],
  ports: (deps, env) => {
    const inner = deps.runner;
    const early = new Set<string>();
    started.set(env.tenant, { early, inner });
    const runner: Runner = {
      run: (run) => (early.has(`${run.listenerId}\n${run.eventId.toLowerCase()}`) ? undefined : inner.run(run)),
      list: (listenerId) => inner.list(listenerId),
    };
    return { runner };
  },
  wrap: (handler, env) => async (request) => {
    const route = routeOf(request);
    const eventId = header(request, 'webhook-event-id');
    const body = parsedBody(request.body);
    const state = started.get(env.tenant);
    if (route.kind === 'webhook' && listenerOf(env.tenant, route.listenerId) && eventId && body && state) {
      const key = `${route.listenerId}\n${eventId.toLowerCase()}`;
      if (!state.early.has(key)) {
        state.early.add(key);
        await state.inner.run({ listenerId: route.listenerId, eventId, context: body.value, at: env.ports().clock.now() });
      }
    }
    return handler(request);
  },
});
