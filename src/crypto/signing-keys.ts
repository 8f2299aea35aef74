/**
 * Webhook JWT signing keys (service.md §5.4 JWT): generation, public halves, JWKS documents, and checks
 * of keys a profile supplies.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import { HarnessError } from '../errors.js';
import { ed25519PublicX } from './ed25519.js';
import type { JWK, JwtAlg, SigningJwk } from './types.js';

export const SIGNING_ALGS: readonly JwtAlg[] = ['RS256', 'ES256', 'EdDSA'];

const generateKeyPairAsync = promisify(generateKeyPair);

/** Private JWK members: never in a JWKS, always redacted. */
export const PRIVATE_JWK_PARAMS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'] as const;

/** A fresh private JWK with `kid` (default: its RFC 7638 thumbprint), `alg` and `use: "sig"`. */
export async function generateSigningKey(alg: JwtAlg, kid?: string): Promise<SigningJwk> {
  let privateKey: KeyObject;
  if (alg === 'RS256') {
    ({ privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 }));
  } else if (alg === 'ES256') {
    ({ privateKey } = await generateKeyPairAsync('ec', { namedCurve: 'P-256' }));
  } else if (alg === 'EdDSA') {
    ({ privateKey } = await generateKeyPairAsync('ed25519'));
  } else {
    throw new HarnessError('KEY_INVALID', `Unsupported signing algorithm "${String(alg)}"; use RS256, ES256 or EdDSA.`);
  }
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const keyId = kid ?? (await calculateJwkThumbprint(jwk, 'sha256'));
  return { ...jwk, kty: jwk.kty as string, kid: keyId, alg, use: 'sig' };
}

/** The public half: private parameters removed, `kid`, `alg`, `use`, `kty` and key parameters kept. */
export function toPublicJwk(jwk: JWK | SigningJwk): JWK {
  const out: Record<string, unknown> = {};
  const drop = new Set<string>(PRIVATE_JWK_PARAMS);
  for (const [name, value] of Object.entries(jwk)) if (!drop.has(name)) out[name] = value;
  return out as JWK;
}

/** A JWKS document of the public halves (private keys in, public keys out: safe to serve). */
export function buildJwks(keys: ReadonlyArray<JWK | SigningJwk>): { keys: JWK[] } {
  return { keys: keys.map(toPublicJwk) };
}

/** Private parameter values of a JWK, for redaction lists. */
export function privateJwkValues(jwk: JWK | SigningJwk | Record<string, unknown>): string[] {
  const values: string[] = [];
  for (const name of PRIVATE_JWK_PARAMS) {
    const value = (jwk as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.length > 0) values.push(value);
  }
  return values;
}

export interface KeyProblem {
  /** Relative to the key, e.g. `alg` or `d` ('' for the whole key). */
  path: string;
  message: string;
}

const KTY_OF: Record<JwtAlg, string> = { RS256: 'RSA', ES256: 'EC', EdDSA: 'OKP' };
const PRIVATE_REQUIRED: Record<string, readonly string[]> = {
  RSA: ['d', 'p', 'q', 'dp', 'dq', 'qi'],
  EC: ['d'],
  OKP: ['d'],
};

/**
 * What keeps a private JWK from signing webhook JWTs; empty when it is usable. Messages name parameters,
 * never their values.
 */
export function checkSigningJwk(value: unknown): KeyProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: '', message: 'must be a JWK object' }];
  }
  const jwk = value as Record<string, unknown>;
  const problems: KeyProblem[] = [];
  if (typeof jwk.kid !== 'string' || jwk.kid.length === 0) problems.push({ path: 'kid', message: 'must be a non-empty string' });
  const alg = jwk.alg as JwtAlg;
  if (!SIGNING_ALGS.includes(alg)) {
    problems.push({ path: 'alg', message: 'must be RS256, ES256 or EdDSA' });
    return problems;
  }
  if (jwk.kty !== KTY_OF[alg]) {
    problems.push({ path: 'kty', message: `must be "${KTY_OF[alg]}" for alg ${alg}` });
    return problems;
  }
  if (alg === 'ES256' && jwk.crv !== 'P-256') problems.push({ path: 'crv', message: 'must be "P-256" for ES256' });
  if (alg === 'EdDSA' && jwk.crv !== 'Ed25519') problems.push({ path: 'crv', message: 'must be "Ed25519" for EdDSA' });
  if (jwk.use !== undefined && jwk.use !== 'sig') problems.push({ path: 'use', message: 'must be "sig" when present' });
  const missing = (PRIVATE_REQUIRED[jwk.kty as string] ?? []).filter((name) => typeof jwk[name] !== 'string');
  if (missing.length > 0) {
    problems.push({
      path: missing[0] as string,
      message: `private key parameter(s) ${missing.join(', ')} missing: the profile needs the private key, not the JWKS entry`,
    });
  }
  if (problems.length > 0) return problems;
  if (jwk.kty === 'OKP' && typeof jwk.d === 'string' && Buffer.from(jwk.d, 'base64url').length === 32 && jwk.x !== ed25519PublicX(jwk.d)) {
    // Node 24.22 refuses to import an OKP JWK whose `x` is not its `d`'s: derived from `d` alone first, the
    // wrong parameter is still named on every Node.
    problems.push({ path: 'x', message: 'does not match the private key (public "x" differs)' });
    return problems;
  }
  try {
    // Importing proves the numbers form a key; deriving the public key catches a mismatched `x`/`y`/`n`.
    const privateKey = createPrivateKey({ key: jwk as JWK & { kty: string }, format: 'jwk' });
    const derived = createPublicKey(privateKey).export({ format: 'jwk' }) as Record<string, unknown>;
    for (const name of ['x', 'y', 'n', 'e']) {
      if (derived[name] !== undefined && jwk[name] !== derived[name]) {
        problems.push({ path: name, message: `does not match the private key (public "${name}" differs)` });
      }
    }
  } catch {
    problems.push({ path: '', message: 'is not a usable private key (import failed)' });
  }
  if (alg === 'RS256' && problems.length === 0) {
    const bits = Buffer.from(jwk.n as string, 'base64url').length * 8;
    if (bits < 2048) problems.push({ path: 'n', message: `RSA modulus of ${bits} bits; RS256 needs at least 2048` });
  }
  return problems;
}
