import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';

export const tokenTypeJwt = defineFault({
  name: 'token-type-jwt',
  description: 'Answers `"token_type": "JWT"` where the token type is `Bearer`.',
  breaks: ['TOK-21', 'TOK-24'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const body = readJson(response);
      return response.status === 200 && isObject(body) ? withJsonBody(response, { ...body, token_type: 'JWT' }) : response;
    }),
});
