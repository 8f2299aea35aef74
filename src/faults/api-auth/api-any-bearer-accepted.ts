import { defineFault } from '../support/define.js';
import { header, onRoute, withHeaders } from '../support/http.js';
import { mintBearer } from '../support/token-endpoint.js';

export const apiAnyBearerAccepted = defineFault({
  name: 'api-any-bearer-accepted',
  description: 'Checks only that API calls carry `Authorization: Bearer <something>`: the token itself is never looked up.',
  breaks: ['AUTH-02', 'AUTH-03', 'AUTH-06', 'AUTH-07', 'AUTH-09'],
  wrap: (handler, env) =>
    onRoute('api', handler, async (request, _route, next) => {
      const someToken = /^\s*bearer\s+\S+\s*$/i.test(header(request, 'authorization') ?? '');
      return next(someToken ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
    }),
});
