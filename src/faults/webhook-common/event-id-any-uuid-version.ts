import { isUuidV4 } from '../../crypto/uuid.js';
import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const eventIdAnyUuidVersion = webhookFault({
  name: 'event-id-any-uuid-version',
  description: 'Accepts any UUID-shaped Webhook-Event-Id (v1, v3, v5, v7, nil, any variant), not only UUID v4.',
  breaks: ['WH-11', 'WH-12', 'WH-13', 'WH-14', 'WH-15', 'WH-18'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id') ?? '';
    return UUID.test(id) && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
  },
});
