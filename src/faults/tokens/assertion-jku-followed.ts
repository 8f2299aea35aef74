import type { JWK } from '../../crypto/types.js';
import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';

const FETCH_TIMEOUT_MS = 2_000;

export const assertionJkuFollowed = acceptAssertion({
  name: 'assertion-jku-followed',
  description: 'Fetches the JWKS a client assertion\'s `jku` header names and verifies with the key found there (SSRF, and anyone can sign).',
  breaks: ['TOK-X02'],
  accepts: async (check) => {
    const header = check.decoded.header;
    if (typeof header?.jku !== 'string') return false;
    let keys: JWK[];
    try {
      const res = await fetch(header.jku, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      keys = ((await res.json()) as { keys?: JWK[] }).keys ?? [];
    } catch {
      return false;
    }
    const key = keys.find((candidate) => candidate.kid === header.kid) ?? keys[0];
    return key !== undefined && assertionSignedBy(check.assertion, key) && assertionClaimsPass(check);
  },
});
