import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { ASSERTION_TYPE, tokenForm, withForm } from '../support/token-endpoint.js';

export const assertionTypeIgnored = defineFault({
  name: 'assertion-type-ignored',
  description: 'Reads `client_assertion` whatever `client_assertion_type` says (a SAML type included).',
  breaks: ['TOK-41'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      if (form && form.has('client_assertion') && form.get('client_assertion_type') !== ASSERTION_TYPE) {
        form.set('client_assertion_type', ASSERTION_TYPE);
        return next(withForm(request, form));
      }
      return next(request);
    }),
});
