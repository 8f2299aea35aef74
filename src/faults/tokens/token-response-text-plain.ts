import { defineFault } from '../support/define.js';
import { onRoute, withResponseHeaders } from '../support/http.js';

export const tokenResponseTextPlain = defineFault({
  name: 'token-response-text-plain',
  description: 'Answers token requests with the right JSON but `Content-Type: text/plain`.',
  breaks: ['TOK-19', 'TOK-20', 'TOK-21', 'TOK-22', 'TOK-24'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      return response.status === 200 ? withResponseHeaders(response, { 'content-type': 'text/plain; charset=utf-8' }) : response;
    }),
});
