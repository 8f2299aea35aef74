import { errorResponse, header } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const timestampWindow60s = webhookFault({
  name: 'timestamp-window-60s',
  description: 'Allows only 60 s between Webhook-Timestamp and server time, where §5.4 allows 5 minutes.',
  breaks: ['WH-04', 'WH-05'],
  handle: async ({ request, next, env }) => {
    const timestamp = Number(header(request, 'webhook-timestamp'));
    return Number.isFinite(timestamp) && Math.abs(env.ports().clock.now() - timestamp) > 60
      ? errorResponse(400, 'invalid_timestamp', 'Webhook-Timestamp is more than 60 s from server time')
      : next(request);
  },
});
