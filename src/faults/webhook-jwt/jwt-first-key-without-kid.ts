import { toPublicJwk } from '../../crypto/signing-keys.js';
import { claimsVerdict, jwtRule, signatureValid } from '../support/jwt-faults.js';

export const jwtFirstKeyWithoutKid = jwtRule({
  name: 'jwt-first-key-without-kid',
  description: 'Verifies a JWT that carries no `kid` with the first key of the JWKS instead of refusing it.',
  breaks: ['WH-JWT-07'],
  decide: async (check) => {
    const { verdict, listener, jwt } = check;
    const first = listener.signingKeys[0];
    if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'kid-missing' || first === undefined) return 'reference';
    return signatureValid(jwt, toPublicJwk(first)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
