import { defineFault } from '../support/define.js';
import { onRoute, withResponseHeaders } from '../support/http.js';

export const api401WithoutChallenge = defineFault({
  name: 'api-401-without-challenge',
  description: 'Answers 401 on API calls without a `WWW-Authenticate: Bearer` challenge.',
  breaks: ['AUTH-08', 'AUTH-09'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, _route, next) => withResponseHeaders(await next(request), { 'www-authenticate': null })),
});
