import { errorResponse } from '../support/http.js';
import { defineFault } from '../support/define.js';

export const searchUsersRefused = defineFault({
  name: 'search-users-refused',
  description: 'The user search answers 401 even with a valid token (§5.1): the operation the description offers cannot be used.',
  breaks: ['OPS-18'],
  // Every other check of the operation needs its pages: each fails or is skipped on the same 401.
  explains: Object.fromEntries(
    (['OPS-04', 'OPS-05', 'OPS-06', 'OPS-07', 'OPS-08', 'OPS-09', 'OPS-10', 'OPS-11', 'OPS-12', 'OPS-14', 'OPS-15', 'OPS-16', 'OPS-17'] as const).map((id) => [id, 'the user search answers no page at all (401)']),
  ),
  wrap: (handler) => async (request) => {
    if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/v1/search/users') return handler(request);
    return errorResponse(401, 'invalid_token', 'the access token is unknown or expired', { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
  },
});
