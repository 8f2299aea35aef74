import { defineFault } from '../support/define.js';
import { encodeJwk, joinSecret, reissue, secretJwk, splitSecret } from '../support/issue.js';

export const secretJwkWrongCurve = defineFault({
  name: 'secret-jwk-wrong-curve',
  description: 'Labels the Ed25519 key inside the Client Secret as `"crv":"X25519"` (same key bytes, wrong curve name).',
  breaks: ['CRED-09'],
  issue: (tenant) => {
    const secret = tenant.credentials.expired.clientSecret;
    const jwk = { ...secretJwk(secret), crv: 'X25519' };
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: encodeJwk(jwk) }) });
  },
});
