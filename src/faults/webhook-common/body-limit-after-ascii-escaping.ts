import { errorResponse } from '../support/http.js';
import { parsedBody } from '../support/events.js';
import { webhookFault } from '../support/webhook-faults.js';

/** JSON text with every non-ASCII character escaped as `\uXXXX`, as an ASCII-only encoder writes it. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const bodyLimitAfterAsciiEscaping = webhookFault({
  name: 'body-limit-after-ascii-escaping',
  description: 'Measures the body after re-encoding it as ASCII-only JSON (`\\uXXXX` escapes, like Python\'s json.dumps): a body of exactly the limit in bytes made of multi-byte characters is refused.',
  breaks: ['WH-X02'],
  handle: async ({ request, next, env }) => {
    const parsed = request.bodyExceeded ? undefined : parsedBody(request.body);
    const limit = env.tenant.webhookBodyBytes;
    return parsed !== undefined && asciiJson(parsed.value).length > limit
      ? errorResponse(413, 'payload_too_large', `the body is larger than ${limit} bytes`)
      : next(request);
  },
});
