import { acceptIfSignedAndClaimsPass, firstWinsObject, jwtRule } from '../support/jwt-faults.js';

export const jwtClaimsFirstWins = jwtRule({
  name: 'jwt-claims-first-wins',
  description: 'Parses the claims with a first-wins JSON parser: of a repeated claim the first occurrence counts, which RFC 7519 §4 does not allow.',
  breaks: ['WH-JWT-X17'],
  decide: async (check) => {
    const { verdict, jwt } = check;
    if (jwt === undefined || verdict?.ok !== false || verdict.reason !== 'duplicate-member') return 'reference';
    const claims = firstWinsObject(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return claims === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, claims);
  },
});
