import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

const NIL = '00000000-0000-0000-0000-000000000000';

export const eventIdNilAccepted = webhookFault({
  name: 'event-id-nil-accepted',
  description: 'Lets the nil UUID through the event-ID check (it is special-cased as "a UUID") and uses it as the event\'s ID.',
  breaks: ['WH-15'],
  handle: async (call) => (header(call.request, 'webhook-event-id') === NIL ? acceptAs(call, { eventId: uuidV4From(NIL) }) : call.next(call.request)),
});
