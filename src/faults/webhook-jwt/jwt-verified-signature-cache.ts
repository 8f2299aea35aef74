import { claimsVerdict, jwtRule } from '../support/jwt-faults.js';

/** Signatures of JWTs that verified: the faulty service's "already checked" cache (bounded, oldest out). */
const verified = new Set<string>();
const CACHE_SIZE = 10_000;

export const jwtVerifiedSignatureCache = jwtRule({
  name: 'jwt-verified-signature-cache',
  description: 'Caches signatures that verified and skips verification when one is seen again, keyed by the signature alone: a valid signature moved onto other claims is accepted.',
  breaks: ['WH-JWT-X10'],
  decide: async (check) => {
    const { verdict, decoded } = check;
    if (decoded === undefined || verdict === undefined) return 'reference';
    if (verdict.ok) {
      if (verified.size >= CACHE_SIZE) verified.delete(verified.values().next().value as string);
      verified.add(decoded.signature);
      return 'reference';
    }
    return verdict.reason === 'bad-signature' && verified.has(decoded.signature) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
