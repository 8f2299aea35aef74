import { toPublicJwk } from '../../crypto/signing-keys.js';
import { claimsVerdict, jwtRule, signatureValid } from '../support/jwt-faults.js';

export const jwtKidIgnored = jwtRule({
  name: 'jwt-kid-ignored',
  description: 'When the JWT\'s `kid` is missing or matches no key, tries every key of the JWKS instead of refusing.',
  breaks: ['WH-JWT-06', 'WH-JWT-07'],
  decide: async (check) => {
    const { verdict, listener, jwt } = check;
    if (jwt === undefined || verdict === undefined || verdict.ok || (verdict.reason !== 'kid-unknown' && verdict.reason !== 'kid-missing')) return 'reference';
    const signed = listener.signingKeys.some((key) => signatureValid(jwt, toPublicJwk(key)));
    return signed && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
