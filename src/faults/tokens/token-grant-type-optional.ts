import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { tokenForm, withForm } from '../support/token-endpoint.js';

export const tokenGrantTypeOptional = defineFault({
  name: 'token-grant-type-optional',
  description: 'Treats a missing `grant_type` as `client_credentials` instead of refusing the request.',
  breaks: ['TOK-31', 'TOK-32'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      if (form && !form.has('grant_type')) {
        form.set('grant_type', 'client_credentials');
        return next(withForm(request, form));
      }
      return next(request);
    }),
});
