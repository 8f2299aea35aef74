import { header } from '../support/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const eventIdHyphensOptional = webhookFault({
  name: 'event-id-hyphens-optional',
  description: 'Strips hyphens before validating Webhook-Event-Id, so 32 hex digits without hyphens pass as a UUID v4.',
  breaks: ['WH-17'],
  handle: async (call) => {
    const id = header(call.request, 'webhook-event-id') ?? '';
    const match = /^([0-9a-f]{8})([0-9a-f]{4})(4[0-9a-f]{3})([89ab][0-9a-f]{3})([0-9a-f]{12})$/i.exec(id);
    return match ? acceptAs(call, { eventId: match.slice(1).join('-') }) : call.next(call.request);
  },
});
