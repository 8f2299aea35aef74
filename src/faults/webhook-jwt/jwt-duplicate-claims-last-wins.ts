import { acceptIfSignedAndClaimsPass, jwtRule } from '../support/jwt-faults.js';

export const jwtDuplicateClaimsLastWins = jwtRule({
  name: 'jwt-duplicate-claims-last-wins',
  description: 'Reads repeated claims with JSON.parse (the last occurrence wins) instead of refusing them: allowed by RFC 7519 §4, refused by the harness\'s ruling.',
  breaks: ['WH-JWT-X18'],
  decide: async (check) => {
    const { verdict } = check;
    if (verdict?.ok !== false || verdict.reason !== 'duplicate-member') return 'reference';
    // decoded.payload came from JSON.parse: the last occurrence of each member.
    return acceptIfSignedAndClaimsPass(check);
  },
});
