import { defineFault } from '../support/define.js';
import { header, onRoute, withHeaders } from '../support/http.js';

export const apiBasicSchemeAccepted = defineFault({
  name: 'api-basic-scheme-accepted',
  description: 'Reads the access token from any Authorization scheme: `Basic <token>` works like `Bearer <token>`.',
  breaks: ['AUTH-04'],
  wrap: (handler) =>
    onRoute('api', handler, async (request, _route, next) => {
      const match = /^\s*basic\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
      return next(match ? withHeaders(request, { authorization: `Bearer ${match[1]}` }) : request);
    }),
});
