import { defineFault } from '../support/define.js';
import { routeOf, withHeaders } from '../support/http.js';
import { tokenForm, withForm } from '../support/token-endpoint.js';

export const tokenBasicCredentialsAccepted = defineFault({
  name: 'token-basic-credentials-accepted',
  description: 'Takes client_id and client_secret from an `Authorization: Basic` header (RFC 6749 §2.3.1) although §4.1 puts credentials in the body, never in headers.',
  breaks: ['TOK-X09'],
  wrap: (handler) => async (request) => {
    const basic = /^\s*basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    const form = tokenForm(request);
    if (routeOf(request).kind !== 'token' || basic === undefined || form === undefined) return handler(request);
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return handler(request);
    form.set('client_id', decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')));
    form.set('client_secret', decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')));
    return handler(withForm(withHeaders(request, { authorization: null }), form));
  },
});
