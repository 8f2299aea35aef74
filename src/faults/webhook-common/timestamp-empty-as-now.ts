import { header } from '../support/http.js';
import { acceptAs, nowStamp, webhookFault } from '../support/webhook-faults.js';

export const timestampEmptyAsNow = webhookFault({
  name: 'timestamp-empty-as-now',
  description: 'Takes an empty Webhook-Timestamp as "now" instead of refusing it as invalid.',
  breaks: ['WH-10'],
  handle: async (call) =>
    header(call.request, 'webhook-timestamp') === '' ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request),
});
