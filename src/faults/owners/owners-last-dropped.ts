import { defineFault } from '../support/define.js';
import { isObject, onRoute, readJson, withJsonBody } from '../support/http.js';

export const ownersLastDropped = defineFault({
  name: 'owners-last-dropped',
  description: 'Loses the last owner of every app (an off-by-one slice): `userIds` is not the app\'s owners.',
  breaks: ['OWN-05'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      const body = readJson(response);
      if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200 || !isObject(body) || !Array.isArray(body.userIds)) return response;
      return withJsonBody(response, { userIds: body.userIds.slice(0, -1) });
    }),
});
