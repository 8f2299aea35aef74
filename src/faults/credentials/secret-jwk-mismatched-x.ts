import { defineFault } from '../support/define.js';
import { encodeJwk, foreignX, joinSecret, reissue, secretJwk, splitSecret } from '../support/issue.js';

export const secretJwkMismatchedX = defineFault({
  name: 'secret-jwk-mismatched-x',
  description: 'Puts another key\'s public `x` next to the private `d` in the Client Secret\'s JWK.',
  breaks: ['CRED-10'],
  issue: (tenant) => {
    const secret = tenant.credentials.expired.clientSecret;
    const jwk = { ...secretJwk(secret), x: foreignX() };
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: encodeJwk(jwk) }) });
  },
});
