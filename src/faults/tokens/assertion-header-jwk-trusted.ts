import type { JWK } from '../../crypto/types.js';
import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';

export const assertionHeaderJwkTrusted = acceptAssertion({
  name: 'assertion-header-jwk-trusted',
  description: 'Verifies a client assertion that carries a `jwk` header with that embedded key instead of the Client Secret\'s (CVE-2018-0114).',
  breaks: ['TOK-X01'],
  accepts: async (check) => {
    const jwk = check.decoded.header?.jwk;
    return typeof jwk === 'object' && jwk !== null && assertionSignedBy(check.assertion, jwk as JWK) && assertionClaimsPass(check);
  },
});
