import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { grantOf, refusal, tokenForm } from '../support/token-endpoint.js';

export const basicGrantUnsupported = defineFault({
  name: 'basic-grant-unsupported',
  description: 'Supports only signed client assertions: every request that sends `client_secret` is refused.',
  breaks: ['TOK-01', 'TOK-19', 'TOK-20', 'TOK-21', 'TOK-22', 'TOK-23'],
  explains: {
    'OWN-01': 'the harness gets its API tokens with the basic method, so no API call can be made',
  },
  wrap: (handler) =>
    onRoute('token', handler, async (request, _route, next) => {
      const form = tokenForm(request);
      return form && form.get('grant_type') === 'client_credentials' && grantOf(form) === 'secret' ? refusal(401, 'invalid_client', 'client_secret is not supported') : next(request);
    }),
});
