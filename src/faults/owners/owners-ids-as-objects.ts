import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';

export const ownersIdsAsObjects = defineFault({
  name: 'owners-ids-as-objects',
  description: 'Lists owners as objects (`"userIds": [{"id": "..."}]`) instead of strings.',
  breaks: ['OWN-04', 'OWN-05'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      const body = readJson(response);
      if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200 || !isObject(body) || !Array.isArray(body.userIds)) return response;
      return withJsonBody(response, { userIds: body.userIds.map((id) => ({ id })) });
    }),
});
