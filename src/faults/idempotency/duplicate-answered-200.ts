import { json } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const duplicateAnswered200 = webhookFault({
  name: 'duplicate-answered-200',
  description: 'Recognises a duplicate event ID and does not run it again, but answers 200 instead of 409.',
  breaks: ['IDEM-01', 'IDEM-05', 'IDEM-07', 'IDEM-09', 'IDEM-10', 'IDEM-11'],
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 409 ? json(200, { accepted: true }) : response;
  },
});
