import { errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const unknownListener401 = webhookFault({
  name: 'unknown-listener-401',
  description: 'Answers 401 for a listener ID it never generated (it cannot authenticate against it) instead of 404.',
  breaks: ['WH-27'],
  handle: async ({ request, known, next }) =>
    known === undefined ? errorResponse(401, 'unauthorized', 'the request could not be authenticated') : next(request),
});
