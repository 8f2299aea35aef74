import { header } from '../support/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const contentTypeOptional = webhookFault({
  name: 'content-type-optional',
  description: 'Assumes JSON when Content-Type is missing instead of refusing the request.',
  breaks: ['WH-20'],
  handle: async (call) =>
    header(call.request, 'content-type') === undefined ? acceptAs(call, { headers: { 'content-type': 'application/json' } }) : call.next(call.request),
});
