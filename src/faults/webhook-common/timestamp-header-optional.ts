import { header } from '../support/http.js';
import { acceptAs, nowStamp, webhookFault } from '../support/webhook-faults.js';

export const timestampHeaderOptional = webhookFault({
  name: 'timestamp-header-optional',
  description: 'Does not require Webhook-Timestamp: without it the window check is skipped (the signature covers an empty timestamp).',
  breaks: ['WH-21'],
  handle: async (call) =>
    header(call.request, 'webhook-timestamp') === undefined ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request),
});
