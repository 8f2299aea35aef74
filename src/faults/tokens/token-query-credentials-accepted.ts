import { defineFault } from '../support/define.js';
import { routeOf } from '../support/http.js';
import { tokenForm, withForm } from '../support/token-endpoint.js';

const CREDENTIAL_FIELDS = ['client_id', 'client_secret', 'client_assertion_type', 'client_assertion'];

export const tokenQueryCredentialsAccepted = defineFault({
  name: 'token-query-credentials-accepted',
  description: 'Reads client credentials from the URL query string as well as the body: they end up in access logs and proxies (RFC 6749 §2.3.1).',
  breaks: ['TOK-X10'],
  wrap: (handler) => async (request) => {
    const form = tokenForm(request);
    const queryAt = request.url.indexOf('?');
    if (routeOf(request).kind !== 'token' || form === undefined || queryAt < 0) return handler(request);
    const query = new URLSearchParams(request.url.slice(queryAt + 1));
    let moved = false;
    for (const name of CREDENTIAL_FIELDS) {
      const value = query.get(name);
      if (value !== null && !form.has(name)) {
        form.set(name, value);
        moved = true;
      }
    }
    return handler(moved ? withForm({ ...request, url: request.url.slice(0, queryAt) }, form) : request);
  },
});
