/**
 * A second JWS verifier written with node:crypto only, so tests of src/crypto do not trust jose to check
 * what jose produced. Returns the decoded header and payload when the signature is valid, else undefined.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';

export interface Verified {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

const HASH: Record<string, string | null> = { RS256: 'sha256', ES256: 'sha256', EdDSA: null };

export function independentVerify(jwt: string, publicJwk: object): Verified | undefined {
  const [h, p, s] = jwt.split('.');
  if (h === undefined || p === undefined || s === undefined) return undefined;
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
  const alg = String(header.alg);
  if (!(alg in HASH)) return undefined;
  const key = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' });
  const data = Buffer.from(`${h}.${p}`, 'ascii');
  const signature = Buffer.from(s, 'base64url');
  // JOSE ES256 signatures are raw r||s (RFC 7518 §3.4), not DER.
  const ok =
    alg === 'ES256'
      ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
      : verify(HASH[alg] ?? null, data, key, signature);
  if (!ok) return undefined;
  return { header, payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown> };
}
