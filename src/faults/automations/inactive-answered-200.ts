import { json } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const inactiveAnswered200 = webhookFault({
  name: 'inactive-answered-200',
  description: 'Answers 200 to a valid request for an unpublished or disabled automation (it does not run it), so the sender believes it ran.',
  breaks: ['RUN-04'],
  handle: async ({ request, next }) => {
    const response = await next(request);
    return response.status === 422 ? json(200, { accepted: true }) : response;
  },
});
