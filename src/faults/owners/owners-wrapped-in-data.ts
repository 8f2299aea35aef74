import { defineFault } from '../support/define.js';
import { onRoute, readJson, withJsonBody } from '../support/http.js';

export const ownersWrappedInData = defineFault({
  name: 'owners-wrapped-in-data',
  description: 'Wraps the owner-ID list response in an envelope: `{"data": {"userIds": [...]}}` instead of `{"userIds": [...]}`.',
  breaks: ['OWN-03', 'OWN-04', 'OWN-05'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      return route.kind === 'api' && route.operation === 'ownerids' && response.status === 200
        ? withJsonBody(response, { data: readJson(response) })
        : response;
    }),
});
