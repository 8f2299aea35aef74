import { errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const webhookAuthFailure400 = webhookFault({
  name: 'webhook-auth-failure-400',
  description: 'Answers a failed webhook authentication (wrong, missing or malformed signature) with 400 instead of 401.',
  breaks: [
    'WH-HMAC-02',
    'WH-HMAC-03',
    'WH-HMAC-04',
    'WH-HMAC-05',
    'WH-HMAC-06',
    'WH-HMAC-07',
    'WH-HMAC-08',
    'WH-HMAC-09',
    'WH-HMAC-10',
    'WH-HMAC-11',
    'WH-HMAC-12',
    'WH-HMAC-13',
    'WH-HMAC-14',
    'WH-HMAC-15',
    'WH-HMAC-16',
    'WH-HMAC-17',
  ],
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 401 ? errorResponse(400, 'invalid_signature', 'the request signature is not valid') : response;
  },
});
