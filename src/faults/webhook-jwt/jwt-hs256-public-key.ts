import { toPublicJwk } from '../../crypto/signing-keys.js';
import { claimsVerdict, hs256Signature, jwtRule } from '../support/jwt-faults.js';

export const jwtHs256PublicKey = jwtRule({
  name: 'jwt-hs256-public-key',
  description: 'Lets the JWT header choose the algorithm: an HS256 token keyed with the JWKS entry (public material) verifies (algorithm confusion).',
  breaks: ['WH-JWT-09'],
  decide: async (check) => {
    const { decoded, jwt, listener } = check;
    if (jwt === undefined || decoded?.header?.alg !== 'HS256') return 'reference';
    const key = listener.signingKeys.find((candidate) => candidate.kid === decoded.header?.kid);
    if (key === undefined) return 'reference';
    const secret = Buffer.from(JSON.stringify(toPublicJwk(key)), 'utf8');
    return decoded.signature === hs256Signature(jwt, secret) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
