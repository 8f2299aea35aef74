import { defineFault } from '../support/define.js';
import { errorResponse, isObject, onRoute, readJson } from '../support/http.js';

export const ownersOwnerless404 = defineFault({
  name: 'owners-ownerless-404',
  description: 'Answers 404 for the owner IDs of an app that has no owners, as if the app did not exist (an empty lookup read as "not found").',
  breaks: ['OWN-X01'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200) return response;
      const body = readJson(response);
      const ids = isObject(body) ? body.userIds : undefined;
      return ids === null || (Array.isArray(ids) && ids.length === 0) ? errorResponse(404, 'not_found', 'no owners for that app') : response;
    }),
});
