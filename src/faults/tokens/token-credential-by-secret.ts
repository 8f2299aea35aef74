import { sha256Base64Url } from '../../crypto/encoding.js';
import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { credentials, grantOf, issueAfterAuthentication, tokenForm } from '../support/token-endpoint.js';

export const tokenCredentialBySecret = defineFault({
  name: 'token-credential-by-secret',
  description: 'Finds the credential by its secret and ignores `client_id`: an unknown or missing Client ID with a valid secret gets a token.',
  breaks: ['TOK-27', 'TOK-28', 'TOK-35', 'TOK-36'],
  wrap: (handler, env) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const form = tokenForm(request);
      if (response.status < 400 || !form || grantOf(form) !== 'secret' || form.get('grant_type') !== 'client_credentials') return response;
      const hash = sha256Base64Url(form.get('client_secret') ?? '');
      const owner = credentials(env.tenant).find((credential) => credential.config.secretSha256 === hash);
      return owner ? issueAfterAuthentication(env, owner, request) : response;
    }),
});
