import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';

export const tokenExpiresInString = defineFault({
  name: 'token-expires-in-string',
  description: 'Sends `expires_in` as a JSON string (`"3600"`) instead of an integer.',
  breaks: ['TOK-22', 'TOK-24'],
  explains: {
    'OWN-01': 'the harness cannot tell when a token with a string expires_in lapses, so it refuses to use it',
  },
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const body = readJson(response);
      return response.status === 200 && isObject(body) ? withJsonBody(response, { ...body, expires_in: String(body.expires_in) }) : response;
    }),
});
