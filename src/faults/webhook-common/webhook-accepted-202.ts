import { withJsonBody, readJson } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

const ACCEPTED = 'every accepted webhook gets 202';

export const webhookAccepted202 = webhookFault({
  name: 'webhook-accepted-202',
  description: 'Answers 202 Accepted (queued) for webhooks it accepted and ran, where §7 says 200.',
  breaks: ['WH-01', 'WH-02', 'WH-04', 'WH-05'],
  explains: {
    'WH-19': ACCEPTED,
    'WH-23': ACCEPTED,
  },
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 200 ? withJsonBody(response, readJson(response), 202) : response;
  },
});
