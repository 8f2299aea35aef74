import { defineFault } from '../support/define.js';
import { errorResponse, json, header, listenerOf, routeOf } from '../support/http.js';
import { parsedBody } from '../support/events.js';

export const triggerToggleIgnored = defineFault({
  name: 'trigger-toggle-ignored',
  description: 'Looks only at whether the automation is published: it runs automations whose trigger toggle is off.',
  breaks: ['RUN-04', 'RUN-05'],
  wrap: (handler, env) => async (request) => {
    const response = await handler(request);
    const route = routeOf(request);
    const known = route.kind === 'webhook' ? listenerOf(env.tenant, route.listenerId) : undefined;
    // 422 comes only after authentication and JSON: the request was valid, the automation disabled.
    if (response.status !== 422 || route.kind !== 'webhook' || !known?.listener.config.published) return response;
    const { eventStore, runner, clock } = env.ports();
    const eventId = header(request, 'webhook-event-id') ?? '';
    const now = clock.now();
    if (!(await eventStore.claim(route.listenerId, eventId.toLowerCase(), now))) {
      return errorResponse(409, 'duplicate_event', 'this event ID was already processed for this listener');
    }
    await runner.run({ listenerId: route.listenerId, eventId, context: parsedBody(request.body)?.value, at: now });
    return json(200, { accepted: true, eventId });
  },
});
