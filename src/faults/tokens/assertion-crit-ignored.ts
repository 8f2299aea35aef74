import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';

export const assertionCritIgnored = acceptAssertion({
  name: 'assertion-crit-ignored',
  description: 'Ignores the `crit` header of a client assertion: one that requires an extension the service does not understand is accepted (RFC 7515 §4.1.11).',
  breaks: ['TOK-X04'],
  accepts: async (check) =>
    Array.isArray(check.decoded.header?.crit) && assertionSignedBy(check.assertion, check.credential.config.publicJwk) && assertionClaimsPass(check),
});
