import { defineFault } from '../support/define.js';
import { bearerToken, isObject, readJson, routeOf, withHeaders } from '../support/http.js';

/** How much of a token the faulty lookup compares. */
const COMPARED = 16;

export const apiTokenPrefixMatch = defineFault({
  name: 'api-token-prefix-match',
  description: `Looks access tokens up by their first ${COMPARED} characters only (an index on a prefix): a token altered after them is accepted.`,
  breaks: ['AUTH-06'],
  wrap: (handler) => {
    const issued = new Map<string, string>();
    return async (request) => {
      const route = routeOf(request);
      if (route.kind === 'token') {
        const response = await handler(request);
        const body = readJson(response);
        if (response.status === 200 && isObject(body) && typeof body.access_token === 'string') {
          issued.set(body.access_token.slice(0, COMPARED), body.access_token);
        }
        return response;
      }
      if (route.kind === 'api') {
        const token = bearerToken(request);
        const known = token === undefined ? undefined : issued.get(token.slice(0, COMPARED));
        if (known !== undefined && known !== token) return handler(withHeaders(request, { authorization: `Bearer ${known}` }));
      }
      return handler(request);
    };
  },
});
