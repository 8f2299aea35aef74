import { defineFault } from '../support/define.js';
import { header, withHeaders } from '../support/http.js';
import { faultToken } from '../support/operations.js';

export const listWithoutToken = defineFault({
  name: 'list-without-token',
  description: 'GET /api/v1/apps answers a request without an Authorization header as if it carried a valid token (§5.1: every API request carries Authorization: Bearer).',
  breaks: ['OPS-01'],
  wrap: (handler, env) => {
    const token = faultToken(env);
    return async (request) => {
      const path = request.url.split('?')[0];
      if (request.method !== 'GET' || path !== '/api/v1/apps' || header(request, 'authorization') !== undefined) return handler(request);
      return handler(withHeaders(request, { authorization: `Bearer ${token()}` }));
    };
  },
});
