import { defineFault } from '../support/define.js';
import { onRoute, withResponseHeaders } from '../support/http.js';

export const tokenCacheable = defineFault({
  name: 'token-cacheable',
  description: 'Leaves out `Cache-Control: no-store` (and `Pragma: no-cache`) on token responses, so caches may keep tokens.',
  breaks: ['TOK-23'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => withResponseHeaders(await next(request), { 'cache-control': null, pragma: null })),
});
