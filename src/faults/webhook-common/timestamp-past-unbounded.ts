import { header } from '../support/http.js';
import { acceptAs, nowStamp, webhookFault } from '../support/webhook-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

export const timestampPastUnbounded = webhookFault({
  name: 'timestamp-past-unbounded',
  description: 'Checks only that Webhook-Timestamp is not in the future beyond 5 minutes: any past timestamp is accepted (replays of old requests too).',
  breaks: ['WH-06'],
  handle: async (call) => {
    const text = header(call.request, 'webhook-timestamp') ?? '';
    const behind = call.env.ports().clock.now() - Number(text);
    return /^\d+$/.test(text) && behind > WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
  },
});
