import { randomUuidV4 } from '../../crypto/uuid.js';
import { header } from '../support/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const eventIdHeaderOptional = webhookFault({
  name: 'event-id-header-optional',
  description: 'Does not require Webhook-Event-Id: without it the service makes up an ID (so retries are never recognised).',
  breaks: ['WH-22'],
  handle: async (call) =>
    header(call.request, 'webhook-event-id') === undefined ? acceptAs(call, { eventId: randomUuidV4() }) : call.next(call.request),
});
