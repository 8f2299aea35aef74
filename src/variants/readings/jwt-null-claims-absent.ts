import { combineFaults } from '../../faults/index.js';
import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../../faults/support/assertion-faults.js';
import { acceptIfSignedAndClaimsPass, jwtRule } from '../../faults/support/jwt-faults.js';
import { nullDatesAbsent } from '../../faults/support/numeric-dates.js';
import type { FaultDeclaration } from '../../faults/types.js';
import { defineVariant } from '../define.js';

const NAME = 'jwt-null-claims-absent';
const DESCRIPTION = 'Reads a JSON null in the optional NumericDate claims `nbf` and `iat` as an absent claim, in the webhook JWT and the client assertion alike; `exp: null` is still refused (`exp` is required).';

const webhook = jwtRule({
  name: NAME,
  description: DESCRIPTION,
  breaks: ['WH-JWT-X22'],
  decide: async (check) => {
    const payload = check.decoded?.payload;
    const seen = check.verdict?.ok === false && payload !== undefined ? nullDatesAbsent(payload) : undefined;
    return seen === undefined ? 'reference' : acceptIfSignedAndClaimsPass(check, seen);
  },
});

const assertion = acceptAssertion({
  name: NAME,
  description: DESCRIPTION,
  breaks: ['TOK-X12'],
  accepts: async (check) => {
    const seen = check.decoded.payload === undefined ? undefined : nullDatesAbsent(check.decoded.payload);
    return seen !== undefined && assertionSignedBy(check.assertion, check.credential.config.publicJwk) && assertionClaimsPass(check, seen);
  },
});

/** One reading, two verifiers: the token endpoint's and the webhook listener's. */
const both: FaultDeclaration = { ...webhook, breaks: [...webhook.breaks, ...assertion.breaks], customize: combineFaults([assertion, webhook]) };

export const jwtNullClaimsAbsent = defineVariant(
  { area: 'webhook-jwt', stacks: 'go-jose v2, golang-jwt v5 (`RegisteredClaims`: `NotBefore`, `IssuedAt` are `*NumericDate`, nil for null)' },
  both,
);
