import { acceptIfSignedAndClaimsPass, jwtRule } from '../support/jwt-faults.js';
import { presenceOnlyClaims } from '../support/numeric-dates.js';

const VALID_FOR_SECONDS = 60;

/**
 * Ruling 25's MUST side: a verifier that cannot read `exp` or `nbf` as a time must not skip the rule. This
 * one compares a claim with the clock only when it is a JSON number and otherwise settles for its presence.
 */
export const jwtNumericDatePresenceOnly = jwtRule({
  name: 'jwt-numeric-date-presence-only',
  description: 'Compares `exp` and `nbf` with the clock only when they are JSON numbers: a claim of any other type (a string, an object, null) counts as present and valid.',
  breaks: ['WH-JWT-X20', 'WH-JWT-X21', 'WH-JWT-X11', 'WH-JWT-X22'],
  decide: async (check) => {
    const payload = check.decoded?.payload;
    if (check.verdict?.ok !== false || payload === undefined) return 'reference';
    const seen = presenceOnlyClaims(payload, Math.floor(check.env.ports().clock.now()) + VALID_FOR_SECONDS);
    return seen === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, seen);
  },
});
