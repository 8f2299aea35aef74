import { errorResponse, header } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const eventIdUppercaseRefused = webhookFault({
  name: 'event-id-uppercase-refused',
  description: 'Validates Webhook-Event-Id case-sensitively: a UUID v4 in upper-case hex is refused.',
  breaks: ['WH-19'],
  handle: async ({ request, next }) =>
    /[A-F]/.test(header(request, 'webhook-event-id') ?? '')
      ? errorResponse(400, 'invalid_event_id', 'Webhook-Event-Id must be a lower-case UUID v4')
      : next(request),
});
