import { defineFault } from '../support/define.js';
import { onRoute, withResponseHeaders } from '../support/http.js';

export const ownersTextPlain = defineFault({
  name: 'owners-text-plain',
  description: 'Sends the owner-ID list with `Content-Type: text/plain` (the body is still JSON).',
  breaks: ['OWN-02'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, route, next) => {
      const response = await next(request);
      return route.kind === 'api' && route.operation === 'ownerids' && response.status === 200
        ? withResponseHeaders(response, { 'content-type': 'text/plain; charset=utf-8' })
        : response;
    }),
});
