import { defineFault } from '../support/define.js';
import { header, onRoute, withHeaders } from '../support/http.js';
import { mintBearer } from '../support/token-endpoint.js';

export const apiAuthOptionalOwners = defineFault({
  name: 'api-auth-optional-owners',
  description: 'Serves the owner-ID list to requests without an Authorization header, as if it were public.',
  breaks: ['OWN-07', 'AUTH-08'],
  wrap: (handler, env) =>
    onRoute('api', handler, async (request, route, next) => {
      const anonymous = route.kind === 'api' && route.operation === 'ownerids' && (header(request, 'authorization') ?? '').trim() === '';
      return next(anonymous ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
    }),
});
