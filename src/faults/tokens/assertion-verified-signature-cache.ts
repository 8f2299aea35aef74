import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';

/** Signatures of assertions that verified: the faulty service's "already checked" cache (bounded, oldest out). */
const verified = new Set<string>();
const CACHE_SIZE = 10_000;

export const assertionVerifiedSignatureCache = acceptAssertion({
  name: 'assertion-verified-signature-cache',
  description: 'Caches client-assertion signatures that verified, keyed by the signature alone, and skips verification when one is seen again: a valid signature moved onto other claims is accepted.',
  breaks: ['TOK-X06'],
  accepts: async (check) => check.verdict.reason === 'bad-signature' && verified.has(check.decoded.signature) && assertionClaimsPass(check),
  observe: (check) => {
    if (assertionSignedBy(check.assertion, check.credential.config.publicJwk)) {
      if (verified.size >= CACHE_SIZE) verified.delete(verified.values().next().value as string);
      verified.add(check.decoded.signature);
    }
  },
});
