import { acceptIfSignedAndClaimsPass, jwtRule } from '../../faults/support/jwt-faults.js';
import { defineVariant } from '../define.js';

const NUMERIC_DATES = ['exp', 'nbf', 'iat'] as const;

export const jwtNumericDateStrings = defineVariant(
  { area: 'webhook-jwt', stacks: 'PyJWT 2.x (`int(payload["exp"])`)' },
  jwtRule({
    name: 'jwt-numeric-date-strings',
    description: 'Reads `exp`, `nbf` and `iat` sent as a string of digits as the time they denote, and enforces that time.',
    breaks: ['WH-JWT-X11'],
    decide: async (check) => {
      const payload = check.decoded?.payload;
      if (check.verdict?.ok !== false || payload === undefined) return 'reference';
      const strings = NUMERIC_DATES.filter((claim) => typeof payload[claim] === 'string' && /^\d+$/.test(payload[claim] as string));
      if (strings.length === 0) return 'reference';
      const coerced = { ...payload, ...Object.fromEntries(strings.map((claim) => [claim, Number(payload[claim])])) };
      return acceptIfSignedAndClaimsPass(check, coerced);
    },
  }),
);
