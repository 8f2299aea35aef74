import { isUuidV4 } from '../../crypto/uuid.js';
import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

export const eventIdNotValidated = webhookFault({
  name: 'event-id-not-validated',
  description: 'Takes any non-empty Webhook-Event-Id as the event\'s ID, UUID or not.',
  breaks: ['WH-11', 'WH-12', 'WH-13', 'WH-14', 'WH-15', 'WH-16', 'WH-17', 'WH-18', 'WH-30'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id');
    return id !== undefined && id !== '' && !isUuidV4(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
  },
});
