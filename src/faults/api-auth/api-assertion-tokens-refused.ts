import { defineFault } from '../support/define.js';
import { bearerToken, errorResponse, isObject, readJson, routeOf } from '../support/http.js';
import { grantOf, tokenForm } from '../support/token-endpoint.js';

export const apiAssertionTokensRefused = defineFault({
  name: 'api-assertion-tokens-refused',
  description: 'Issues tokens for client assertions that the API then does not honour (they land in a store the API does not read).',
  breaks: ['AUTH-11'],
  wrap: (handler) => {
    const fromAssertions = new Set<string>();
    return async (request) => {
      const route = routeOf(request);
      if (route.kind === 'api' && fromAssertions.has(bearerToken(request) ?? '')) {
        return errorResponse(401, 'invalid_token', 'the access token is unknown or expired', { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
      }
      const response = await handler(request);
      const form = route.kind === 'token' ? tokenForm(request) : undefined;
      const body = readJson(response);
      if (form && grantOf(form) === 'assertion' && response.status === 200 && isObject(body) && typeof body.access_token === 'string') {
        fromAssertions.add(body.access_token);
      }
      return response;
    };
  },
});
