import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';
import { grantOf, tokenForm } from '../support/token-endpoint.js';

export const assertionTokenExpiresInFraction = defineFault({
  name: 'assertion-token-expires-in-fraction',
  description: 'For tokens obtained with a client assertion, `expires_in` is a fraction (seconds left on the assertion\'s clock), not an integer.',
  breaks: ['TOK-24'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const form = tokenForm(request);
      const body = readJson(response);
      if (response.status !== 200 || !form || grantOf(form) !== 'assertion' || !isObject(body)) return response;
      return withJsonBody(response, { ...body, expires_in: Number(body.expires_in) - 0.5 });
    }),
});
