import { defineFault } from '../support/define.js';
import { errorResponse, onRoute } from '../support/http.js';

export const apiEntitlementsForbidden = defineFault({
  name: 'api-entitlements-forbidden',
  description: 'Refuses every valid token on the entitlement list with 403 (a role check that no credential passes).',
  breaks: ['AUTH-12'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      return route.kind === 'api' && route.operation === 'entitlements' && response.status === 200
        ? errorResponse(403, 'insufficient_scope', 'the token lacks the role for this operation')
        : response;
    }),
});
