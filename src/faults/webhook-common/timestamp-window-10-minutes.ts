import { header } from '../support/http.js';
import { acceptAs, nowStamp, webhookFault } from '../support/webhook-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

export const timestampWindow10Minutes = webhookFault({
  name: 'timestamp-window-10-minutes',
  description: 'Allows 10 minutes between Webhook-Timestamp and server time, where §5.4 allows 5.',
  breaks: ['WH-06', 'WH-07'],
  handle: async (call) => {
    const text = header(call.request, 'webhook-timestamp') ?? '';
    const skew = Math.abs(call.env.ports().clock.now() - Number(text));
    return /^\d+$/.test(text) && skew > WEBHOOK_TIMESTAMP_WINDOW_SECONDS && skew <= 600 ? acceptAs(call, { timestamp: nowStamp(call.env) }) : call.next(call.request);
  },
});
