import type { JWK } from '../../crypto/types.js';
import { claimsVerdict, jwtRule, signatureValid } from '../support/jwt-faults.js';

/** How long the faulty service waits for a `jku` document. */
const FETCH_TIMEOUT_MS = 2_000;

export const jwtJkuFollowed = jwtRule({
  name: 'jwt-jku-followed',
  description: 'Fetches the JWKS a JWT\'s `jku` header names and verifies with the key found there (SSRF, and anyone can sign).',
  breaks: ['WH-JWT-X02'],
  decide: async (check) => {
    const header = check.decoded?.header;
    if (check.jwt === undefined || check.verdict?.ok !== false || typeof header?.jku !== 'string') return 'reference';
    let keys: JWK[];
    try {
      const res = await fetch(header.jku, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      keys = ((await res.json()) as { keys?: JWK[] }).keys ?? [];
    } catch {
      return 'reference';
    }
    const key = keys.find((candidate) => candidate.kid === header.kid) ?? keys[0];
    return key !== undefined && signatureValid(check.jwt, key) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
