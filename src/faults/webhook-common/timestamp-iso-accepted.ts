import { header } from '../support/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

export const timestampIsoAccepted = webhookFault({
  name: 'timestamp-iso-accepted',
  description: 'Parses Webhook-Timestamp with a date parser: an ISO 8601 date is accepted where Unix seconds are required.',
  breaks: ['WH-09'],
  handle: async (call) => {
    const text = header(call.request, 'webhook-timestamp') ?? '';
    const parsed = Date.parse(text);
    if (/^\d+$/.test(text) || Number.isNaN(parsed)) return call.next(call.request);
    const seconds = Math.floor(parsed / 1000);
    return Math.abs(call.env.ports().clock.now() - seconds) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: String(seconds) }) : call.next(call.request);
  },
});
