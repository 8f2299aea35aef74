import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { claimsVerdict, jwtRule, listedKey } from '../support/jwt-faults.js';

export const jwtEcdsaDerAccepted = jwtRule({
  name: 'jwt-ecdsa-der-accepted',
  description: 'Accepts a DER-encoded ES256 signature (what OpenSSL and Java produce) where JOSE requires the 64-byte r‖s (RFC 7518 §3.4).',
  breaks: ['WH-JWT-X08'],
  decide: async (check) => {
    const { jwt, decoded } = check;
    const key = listedKey(check.listener, decoded?.header?.kid);
    if (jwt === undefined || decoded?.header?.alg !== 'ES256' || check.verdict?.ok !== false || key === undefined) return 'reference';
    const signature = Buffer.from(decoded.signature, 'base64url');
    if (signature.length === 64) return 'reference';
    let valid: boolean;
    try {
      const input = Buffer.from(jwt.split('.').slice(0, 2).join('.'));
      valid = verify('sha256', input, { key: createPublicKey({ key: key as JsonWebKey, format: 'jwk' }), dsaEncoding: 'der' }, signature);
    } catch {
      valid = false;
    }
    return valid && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
