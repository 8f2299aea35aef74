import type { JWK } from '../../crypto/types.js';
import { claimsVerdict, jwtRule, signatureValid } from '../support/jwt-faults.js';

export const jwtHeaderJwkTrusted = jwtRule({
  name: 'jwt-header-jwk-trusted',
  description: 'Verifies a JWT that carries a `jwk` header with that embedded key instead of the JWKS (CVE-2018-0114): anyone can sign.',
  breaks: ['WH-JWT-X01'],
  decide: async (check) => {
    const jwk = check.decoded?.header?.jwk;
    if (check.jwt === undefined || check.verdict?.ok !== false || typeof jwk !== 'object' || jwk === null) return 'reference';
    return signatureValid(check.jwt, jwk as JWK) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
