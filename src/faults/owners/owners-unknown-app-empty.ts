import { defineFault } from '../support/define.js';
import { json, onRoute } from '../support/http.js';

export const ownersUnknownAppEmpty = defineFault({
  name: 'owners-unknown-app-empty',
  description: 'Answers 200 `{"userIds": null}` for an app that does not exist, instead of 404.',
  breaks: ['OWN-08'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      return route.kind === 'api' && route.operation === 'ownerids' && response.status === 404 ? json(200, { userIds: null }) : response;
    }),
});
