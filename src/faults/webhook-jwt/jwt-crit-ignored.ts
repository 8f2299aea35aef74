import { acceptIfSignedAndClaimsPass, jwtRule } from '../support/jwt-faults.js';

export const jwtCritIgnored = jwtRule({
  name: 'jwt-crit-ignored',
  description: 'Ignores the `crit` header: a JWT that requires an extension the service does not understand is accepted (RFC 7515 §4.1.11).',
  breaks: ['WH-JWT-X04'],
  decide: async (check) => {
    if (check.verdict?.ok !== false || !Array.isArray(check.decoded?.header?.crit)) return 'reference';
    return acceptIfSignedAndClaimsPass(check);
  },
});
