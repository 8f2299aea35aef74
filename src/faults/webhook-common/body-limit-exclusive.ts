import { errorResponse } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const bodyLimitExclusive = webhookFault({
  name: 'body-limit-exclusive',
  description: 'Refuses a webhook body of exactly the limit (64 KB) with 413: the bound is checked with `>=` instead of `>`.',
  breaks: ['WH-02'],
  handle: async ({ request, next, env }) =>
    !request.bodyExceeded && request.body.length >= env.tenant.webhookBodyBytes
      ? errorResponse(413, 'payload_too_large', `the body must be smaller than ${env.tenant.webhookBodyBytes} bytes`)
      : next(request),
});
