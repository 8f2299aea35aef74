import { header } from '../support/http.js';
import { acceptAs, nowStamp, webhookFault } from '../support/webhook-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

export const timestampFutureUnbounded = webhookFault({
  name: 'timestamp-future-unbounded',
  description: 'Checks only that Webhook-Timestamp is not older than 5 minutes: any timestamp in the future is accepted (milliseconds read as seconds too).',
  breaks: ['WH-07', 'WH-08'],
  handle: async (call) => {
    const text = header(call.request, 'webhook-timestamp') ?? '';
    const ahead = Number(text) - call.env.ports().clock.now();
    return /^\d+$/.test(text) && ahead > WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
  },
});
