import { defineFault } from '../support/define.js';
import { errorResponse, routeOf } from '../support/http.js';

export const ownersRouteTrailingSlash = defineFault({
  name: 'owners-route-trailing-slash',
  description: 'Serves the owner-ID list only at `/ownerids/` (trailing slash): the documented path answers 404.',
  breaks: ['OWN-01', 'OWN-02', 'OWN-03', 'OWN-04', 'OWN-05', 'OWN-07'],
  explains: {
    'OWN-06': 'the observation needs the 200 body of the owner-ID list',
  },
  wrap: (handler) => async (request) => {
    const route = routeOf(request);
    if (route.kind === 'api' && route.operation === 'ownerids') return errorResponse(404, 'not_found', 'no such resource');
    return handler(request);
  },
});
