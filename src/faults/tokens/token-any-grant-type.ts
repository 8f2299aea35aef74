import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { tokenForm, withForm } from '../support/token-endpoint.js';

export const tokenAnyGrantType = defineFault({
  name: 'token-any-grant-type',
  description: 'Requires a `grant_type` but never checks its value: `grant_type=password` is served as client credentials.',
  breaks: ['TOK-29', 'TOK-30'],
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      if (form && form.get('grant_type')) {
        form.set('grant_type', 'client_credentials');
        return next(withForm(request, form));
      }
      return next(request);
    }),
});
