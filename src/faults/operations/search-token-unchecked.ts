import { defineFault } from '../support/define.js';
import { bearerToken, withHeaders } from '../support/http.js';
import { faultToken, isSearch } from '../support/operations.js';

export const searchTokenUnchecked = defineFault({
  name: 'search-token-unchecked',
  description: 'A search accepts any bearer token, unknown or expired, as long as one is sent (ruling 6: 401 for an unknown or expired token).',
  breaks: ['OPS-02', 'OPS-03'],
  wrap: (handler, env) => {
    const valid = faultToken(env);
    return async (request) => {
      if (!isSearch(request) || bearerToken(request) === undefined) return handler(request);
      return handler(withHeaders(request, { authorization: `Bearer ${valid()}` }));
    };
  },
});
