import { toPublicJwk } from '../../crypto/signing-keys.js';
import { claimsVerdict, jwtRule, signatureValid } from '../support/jwt-faults.js';

export const jwtKeyChosenByAlg = jwtRule({
  name: 'jwt-key-chosen-by-alg',
  description: 'When the key a `kid` names has another algorithm than the header\'s `alg`, uses any JWKS key of that `alg` instead of refusing.',
  breaks: ['WH-JWT-X05'],
  decide: async (check) => {
    const { verdict, jwt, listener } = check;
    if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'key-alg-mismatch') return 'reference';
    const alg = check.decoded?.header?.alg;
    const signed = listener.signingKeys.some((key) => key.alg === alg && signatureValid(jwt, toPublicJwk(key)));
    return signed && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
