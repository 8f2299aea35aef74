import { errorResponse } from '../../faults/support/http.js';
import { webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

export const unknownListener401 = defineVariant(
  { area: 'webhook-common', stacks: 'Express `app.use(verifyWebhook)` or a FastAPI router dependency that authenticates before the route looks the listener up' },
  webhookFault({
    name: 'unknown-listener-401',
    description: 'Answers 401 for a listener ID it never generated (authentication runs first and has no secret to check against) instead of 404.',
    breaks: ['WH-27'],
    handle: async ({ request, known, next }) =>
      known === undefined ? errorResponse(401, 'unauthorized', 'the request could not be authenticated') : next(request),
  }),
);
