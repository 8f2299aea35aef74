import { claimsVerdict, jwtRule } from '../support/jwt-faults.js';

export const jwtEcdsaZeroAccepted = jwtRule({
  name: 'jwt-ecdsa-zero-accepted',
  description: 'ES256 verification without the r, s ≠ 0 check (CVE-2022-21449, "psychic signatures"): a signature with r = 0 or s = 0 verifies any message.',
  breaks: ['WH-JWT-X06'],
  decide: async (check) => {
    if (check.decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false) return 'reference';
    const signature = Buffer.from(check.decoded.signature, 'base64url');
    if (signature.length !== 64) return 'reference';
    const zero = (half: Buffer): boolean => half.every((byte) => byte === 0);
    return (zero(signature.subarray(0, 32)) || zero(signature.subarray(32))) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
