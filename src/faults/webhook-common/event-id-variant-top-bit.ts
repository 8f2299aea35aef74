import { header } from '../support/http.js';
import { acceptAs, uuidV4From, webhookFault } from '../support/webhook-faults.js';

/** Version 4 and a variant nibble with its top bit set: 8–b (RFC 4122) but also c–f. */
const TOP_BIT = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89a-f][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const eventIdVariantTopBit = webhookFault({
  name: 'event-id-variant-top-bit',
  description: 'Checks only the top bit of the UUID variant (`& 0x80`): version 4 with the Microsoft (c, d) or reserved (e, f) variant is accepted.',
  breaks: ['WH-X16', 'WH-X17'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id') ?? '';
    return TOP_BIT.test(id) && !/-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)
      ? acceptAs(call, { eventId: uuidV4From(id) })
      : call.next(call.request);
  },
});
