/**
 * Fresh Ed25519 keys without a key-generation job.
 *
 * Node 20's `generateKeyPairSync` leaves its synchronous key-generation job for the garbage collector to
 * free, and the job's destructor locks the generated key's mutex. `KeyObject.export({ format: 'jwk' })`
 * holds that same mutex while it allocates the JWK's strings; when that allocation triggers a collection
 * that frees the job, the main thread waits on a lock it holds itself, for ever (gdb: ExportJWKEdKey →
 * String::NewFromOneByte → GC → ~KeyGenJob → uv_mutex_lock). Measured with bench/key-export-stall.ts's
 * loop: 5 of 5 Node 20.20 processes deadlocked within 1,000–12,000 keys (BENCHMARKS.md, "Key export").
 *
 * An Ed25519 private key is 32 random octets (RFC 8032 §5.1.5), so no job is needed: the seed is drawn
 * from the CSPRNG and its public key derived from it, as the service does when it checks a secret. Every
 * Ed25519 key the project makes comes from here; other key types are generated asynchronously
 * (signing-keys.ts), whose job Node frees as soon as its callback has run.
 */
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';

/** A type, not an interface, so it fits the `Record<string, …>` JWK types of callers. */
export type Ed25519Jwk = {
  kty: 'OKP';
  crv: 'Ed25519';
  /** The private key, base64url. */
  d: string;
  /** The public key, base64url. */
  x: string;
};

/** PKCS #8 of an Ed25519 private key up to its 32-octet seed (RFC 8410 §7: the fixed DER prefix). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The Ed25519 public key `x` of a private key `d` (base64url). The seed goes in as PKCS #8, not as a JWK:
 * a JWK needs its `x`, the very value asked for, and Node 24.22 refuses one without it ("Invalid JWK OKP
 * key") where earlier releases ignored it.
 */
export function ed25519PublicX(d: string): string {
  const seed = Buffer.from(d, 'base64url');
  if (seed.length !== 32) throw new TypeError('an Ed25519 private key is 32 octets');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return createPublicKey(privateKey).export({ format: 'jwk' }).x as string;
}

/** A fresh Ed25519 private JWK (kty, crv, d, x). */
export function newEd25519Jwk(): Ed25519Jwk {
  const d = randomBytes(32).toString('base64url');
  return { kty: 'OKP', crv: 'Ed25519', d, x: ed25519PublicX(d) };
}
