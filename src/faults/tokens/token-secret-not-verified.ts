import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { credentialById, grantOf, issueAfterAuthentication, tokenForm } from '../support/token-endpoint.js';

export const tokenSecretNotVerified = defineFault({
  name: 'token-secret-not-verified',
  description: 'Looks up the Client ID but never compares the `client_secret`: any secret of the right format gets a token.',
  breaks: ['TOK-25', 'TOK-26'],
  wrap: (handler, env) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const form = tokenForm(request);
      const credential = form && credentialById(env.tenant, form.get('client_id'));
      if (response.status !== 401 || !form || !credential || grantOf(form) !== 'secret' || form.get('grant_type') !== 'client_credentials') return response;
      return issueAfterAuthentication(env, credential, request);
    }),
});
