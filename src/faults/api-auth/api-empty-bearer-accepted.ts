import { defineFault } from '../support/define.js';
import { header, onRoute, withHeaders } from '../support/http.js';
import { mintBearer } from '../support/token-endpoint.js';

export const apiEmptyBearerAccepted = defineFault({
  name: 'api-empty-bearer-accepted',
  description: 'Takes `Authorization: Bearer` with an empty token as a request that needs no token and serves it.',
  breaks: ['AUTH-05'],
  wrap: (handler, env) =>
    onRoute('api', handler, async (request, _route, next) => {
      const empty = /^\s*bearer\s*$/i.test(header(request, 'authorization') ?? 'x');
      return next(empty ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
    }),
});
