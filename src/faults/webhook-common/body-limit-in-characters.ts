import { WEBHOOK_PATH_PREFIX } from '../../reference/webhooks.js';
import { errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

/** Enough to read any body that is under the limit in characters: 4 UTF-8 bytes per character at most. */
const READ_FACTOR = 4;

export const bodyLimitInCharacters = webhookFault({
  name: 'body-limit-in-characters',
  description: 'Counts the 64 KB limit in characters of the decoded body, not in bytes: a body of multi-byte characters over the limit in bytes is accepted.',
  breaks: ['WH-X01'],
  limits: (limitFor, env) => (method, url) =>
    (url.startsWith(WEBHOOK_PATH_PREFIX) ? env.tenant.webhookBodyBytes * READ_FACTOR : limitFor(method, url)),
  handle: async ({ request, next, env }) => {
    const limit = env.tenant.webhookBodyBytes;
    if (request.bodyExceeded || request.body.length <= limit) return next(request);
    return request.body.toString('utf8').length > limit
      ? errorResponse(413, 'payload_too_large', `the body is longer than ${limit} characters`)
      : next(request);
  },
});
