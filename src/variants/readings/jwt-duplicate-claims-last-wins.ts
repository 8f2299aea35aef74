import { acceptIfSignedAndClaimsPass, jwtRule } from '../../faults/support/jwt-faults.js';
import { defineVariant } from '../define.js';

export const jwtDuplicateClaimsLastWins = defineVariant(
  { area: 'webhook-jwt', stacks: 'Go encoding/json (golang-jwt), Python `json` (PyJWT), JavaScript `JSON.parse` (jose)', touches: ['WH-JWT-X17'] },
  jwtRule({
    name: 'jwt-duplicate-claims-last-wins',
    description: 'Reads a JWT payload with a repeated claim as its JSON parser does, the last occurrence winning, instead of refusing it (RFC 7519 §4 allows either).',
    breaks: ['WH-JWT-X18'],
    decide: async (check) => {
      const { verdict } = check;
      if (verdict?.ok !== false || verdict.reason !== 'duplicate-member') return 'reference';
      // decoded.payload came from JSON.parse: the last occurrence of each member.
      return acceptIfSignedAndClaimsPass(check);
    },
  }),
);
