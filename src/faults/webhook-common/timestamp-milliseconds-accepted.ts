import { header } from '../support/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';
import { WEBHOOK_TIMESTAMP_WINDOW_SECONDS } from '../../spec-numbers.js';

export const timestampMillisecondsAccepted = webhookFault({
  name: 'timestamp-milliseconds-accepted',
  description: 'Guesses the unit of Webhook-Timestamp: a value too large for seconds is read as milliseconds and accepted.',
  breaks: ['WH-08'],
  handle: async (call) => {
    const text = header(call.request, 'webhook-timestamp') ?? '';
    if (!/^\d{12,15}$/.test(text)) return call.next(call.request);
    const seconds = Math.floor(Number(text) / 1000);
    return Math.abs(call.env.ports().clock.now() - seconds) <= WEBHOOK_TIMESTAMP_WINDOW_SECONDS ? acceptAs(call, { timestamp: String(seconds) }) : call.next(call.request);
  },
});
