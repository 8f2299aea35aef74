import { P256_ORDER } from '../../crypto/jws-tamper.js';
import { claimsVerdict, jwtRule } from '../support/jwt-faults.js';

export const jwtEcdsaUnreduced = jwtRule({
  name: 'jwt-ecdsa-unreduced',
  description: 'ES256 verification that reduces r and s modulo the group order instead of refusing values ≥ n: r or s equal to n becomes 0 and verifies any message.',
  breaks: ['WH-JWT-X07'],
  decide: async (check) => {
    if (check.decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false) return 'reference';
    const signature = Buffer.from(check.decoded.signature, 'base64url');
    if (signature.length !== 64) return 'reference';
    const value = (half: Buffer): bigint => BigInt(`0x${half.toString('hex')}`);
    const [r, s] = [value(signature.subarray(0, 32)), value(signature.subarray(32))];
    const wraps = (x: bigint): boolean => x >= P256_ORDER && x % P256_ORDER === 0n;
    return (wraps(r) || wraps(s)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
