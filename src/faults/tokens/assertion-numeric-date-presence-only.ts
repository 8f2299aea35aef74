import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';
import { presenceOnlyClaims } from '../support/numeric-dates.js';

const VALID_FOR_SECONDS = 60;

/** The client-assertion twin of jwt-numeric-date-presence-only (ruling 25, "webhook JWT and client assertion"). */
export const assertionNumericDatePresenceOnly = acceptAssertion({
  name: 'assertion-numeric-date-presence-only',
  description: 'Compares a client assertion\'s `exp` and `nbf` with the clock only when they are JSON numbers: a claim of any other type (a string, an object, null) counts as present and valid.',
  breaks: ['TOK-X11', 'TOK-X12'],
  accepts: async (check) => {
    const payload = check.decoded.payload;
    if (payload === undefined || !assertionSignedBy(check.assertion, check.credential.config.publicJwk)) return false;
    const seen = presenceOnlyClaims(payload, Math.floor(check.env.ports().clock.now()) + VALID_FOR_SECONDS);
    return seen !== undefined && assertionClaimsPass(check, seen);
  },
});
