import { errorResponse, header } from '../support/http.js';
import { webhookFault } from '../support/webhook-faults.js';

export const contentTypeExactMatch = webhookFault({
  name: 'content-type-exact-match',
  description: 'Compares Content-Type with `application/json` as a whole string: `application/json; charset=utf-8` is refused.',
  breaks: ['WH-23'],
  handle: async ({ request, next }) => {
    const value = header(request, 'content-type');
    return value !== undefined && value !== 'application/json'
      ? errorResponse(400, 'invalid_content_type', 'Content-Type must be application/json')
      : next(request);
  },
});
