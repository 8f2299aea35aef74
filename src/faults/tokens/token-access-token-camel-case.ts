import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';

export const tokenAccessTokenCamelCase = defineFault({
  name: 'token-access-token-camel-case',
  description: 'Names the token `accessToken` in the token response instead of `access_token`.',
  breaks: ['TOK-20'],
  explains: {
    'TOK-01': 'a token response without access_token gives the client no token',
    'TOK-02': 'a token response without access_token gives the client no token',
    'TOK-03': 'a token response without access_token gives the client no token',
    'TOK-04': 'a token response without access_token gives the client no token',
    'TOK-05': 'a token response without access_token gives the client no token',
    'TOK-06': 'a token response without access_token gives the client no token',
    'TOK-07': 'a token response without access_token gives the client no token',
    'TOK-08': 'a token response without access_token gives the client no token',
    'TOK-24': 'the assertion-method response has no access_token either',
    'OWN-01': 'the harness finds no access_token, so no API call can be made',
  },
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const body = readJson(response);
      if (response.status !== 200 || !isObject(body)) return response;
      const { access_token: accessToken, ...rest } = body;
      return withJsonBody(response, { accessToken, ...rest });
    }),
});
