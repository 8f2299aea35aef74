import { isUuidV4 } from '../../crypto/uuid.js';
import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

const VERSION_4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const eventIdVariantUnchecked = webhookFault({
  name: 'event-id-variant-unchecked',
  description: 'Checks the UUID version nibble of Webhook-Event-Id but not the RFC 4122 variant.',
  breaks: ['WH-18'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id') ?? '';
    return VERSION_4.test(id) && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
  },
});
