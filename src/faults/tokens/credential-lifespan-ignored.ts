import { sha256Base64Url } from '../../crypto/encoding.js';
import { createAddressMatcher } from '../../reference/cidr.js';
import { credentialExpiry } from '../../reference/credentials.js';
import { defineFault } from '../support/define.js';
import { onRoute } from '../support/http.js';
import { ASSERTION_TYPE, assertionVerdict, credentialById, grantOf, mintToken, tokenForm } from '../support/token-endpoint.js';

export const credentialLifespanIgnored = defineFault({
  name: 'credential-lifespan-ignored',
  description: 'Never compares the credential\'s lifespan with its age: a credential past its 30 days still gets tokens.',
  breaks: ['TOK-39', 'TOK-40'],
  wrap: (handler, env) =>
    onRoute('token', handler, async (request, _route, next) => {
      const response = await next(request);
      const form = tokenForm(request);
      const credential = form && credentialById(env.tenant, form.get('client_id'));
      const now = env.ports().clock.now();
      if (response.status !== 401 || !form || !credential || credentialExpiry(credential.config) > now) return response;
      if (form.get('grant_type') !== 'client_credentials') return response;
      // The credential authenticated (secret or assertion) and is allowed here: only its age was against it.
      const grant = grantOf(form);
      const authenticated = grant === 'secret'
        ? sha256Base64Url(form.get('client_secret') ?? '') === credential.config.secretSha256
        : grant === 'assertion' && form.get('client_assertion_type') === ASSERTION_TYPE &&
          (await assertionVerdict(env.tenant, credential, form.get('client_assertion')!, now)).ok;
      if (!authenticated || !createAddressMatcher(credential.config.allowedCidrs).allows(request.remoteAddress)) return response;
      return mintToken(env, credential.clientId);
    }),
});
