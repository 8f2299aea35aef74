import { errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const listenerCidrs401 = webhookFault({
  name: 'listener-cidrs-401',
  description: 'Refuses a source address outside the listener\'s CIDRs with 401 (as an authentication failure) instead of 403.',
  breaks: ['WH-26'],
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 403 ? errorResponse(401, 'unauthorized', 'the request could not be authenticated') : response;
  },
});
