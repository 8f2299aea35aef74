import { errorCode, errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const timestampRefused401 = webhookFault({
  name: 'timestamp-refused-401',
  description: 'Treats an out-of-range or malformed Webhook-Timestamp as an authentication failure: 401 instead of 400.',
  breaks: ['WH-06', 'WH-07', 'WH-08', 'WH-09', 'WH-10'],
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 400 && errorCode(response) === 'invalid_timestamp'
      ? errorResponse(401, 'unauthorized', 'the request is not fresh')
      : response;
  },
});
