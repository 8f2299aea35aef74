import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

/** Version 4 and a variant nibble 0–7 (NCS): the bits an "is it 11x?" test never looks at. */
const NCS = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-7][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const eventIdVariantNcsAccepted = webhookFault({
  name: 'event-id-variant-ncs-accepted',
  description: 'Refuses only the Microsoft and reserved UUID variants (`(byte & 0xc0) === 0xc0`): version 4 with the NCS variant (0–7) is accepted.',
  breaks: ['WH-X14', 'WH-X15'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id') ?? '';
    return NCS.test(id) ? acceptAs(call, { eventId: uuidV4From(id) }) : call.next(call.request);
  },
});
