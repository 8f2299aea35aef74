import { defineFault } from '../support/define.js';
import { header, onRoute, withHeaders } from '../support/http.js';
import { mintBearer } from '../support/token-endpoint.js';

export const apiAuthOptionalEntitlements = defineFault({
  name: 'api-auth-optional-entitlements',
  description: 'Serves the entitlement list to requests without an Authorization header (a token is checked only when one is sent).',
  breaks: ['AUTH-01'],
  wrap: (handler, env) =>
    onRoute('api', handler, async (request, route, next) => {
      const anonymous = route.kind === 'api' && route.operation === 'entitlements' && (header(request, 'authorization') ?? '').trim() === '';
      return next(anonymous ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
    }),
});
