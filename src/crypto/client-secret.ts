/**
 * Client Secret `secret-token:<domain>:v1:<base64url JWK>` (service.md §2.1; ruling 1).
 * node:crypto only: parsing happens for every profile load and must not pull in jose.
 */
import { HarnessError, valueErrorClass } from '../errors.js';
import { ed25519PublicX, newEd25519Jwk } from './ed25519.js';
import { base64UrlProblem, fromBase64UrlStrict, toBase64Url } from './encoding.js';
import type { JWK } from './types.js';

export const CLIENT_SECRET_PREFIX = 'secret-token';

export interface ParsedClientSecret {
  domain: string;
  version: string;
  /** `{kty:'OKP', crv:'Ed25519', d, x}` plus `kid` when the secret's JWK has one. */
  privateJwk: JWK;
  /** The same without `d`. */
  publicJwk: JWK;
  /** The base64url JWK text (fourth part): a secret too, for redaction. */
  encodedJwk: string;
}

export type ClientSecretReason =
  | 'empty'
  | 'whitespace'
  | 'wrong-prefix'
  | 'wrong-part-count'
  | 'empty-domain'
  | 'unsupported-version'
  | 'empty-jwk'
  | 'base64-padding'
  | 'base64-standard-alphabet'
  | 'base64-invalid'
  | 'jwk-not-json'
  | 'jwk-not-object'
  | 'jwk-kty'
  | 'jwk-crv'
  | 'jwk-missing-d'
  | 'jwk-missing-x'
  | 'jwk-bad-d'
  | 'jwk-bad-x'
  | 'jwk-x-mismatch';

/** A Client Secret that cannot be used; the message never contains any part of the secret. */
export const ClientSecretError = valueErrorClass<ClientSecretReason>(
  'CLIENT_SECRET_INVALID',
  'Paste the Client Secret exactly as the service displayed it: secret-token:<domain>:v1:<base64url JWK>.',
);
export type ClientSecretError = InstanceType<typeof ClientSecretError>;

export interface SecretLint {
  level: 'INFO';
  code: string;
  message: string;
}

export function parseClientSecret(secret: string, options: { field?: string } = {}): ParsedClientSecret {
  const fail = (reason: ClientSecretReason, message: string): never => {
    throw new ClientSecretError(reason, `Client Secret ${message}`, options.field);
  };
  if (secret.length === 0) fail('empty', 'is empty');
  if (/[\s\u0000-\u001f\u007f]/.test(secret)) {
    fail('whitespace', 'contains whitespace or control characters (a trailing newline from a file or variable?)');
  }
  if (!secret.startsWith(`${CLIENT_SECRET_PREFIX}:`)) fail('wrong-prefix', `does not start with "${CLIENT_SECRET_PREFIX}:"`);
  const parts = secret.split(':');
  if (parts.length !== 4) {
    fail('wrong-part-count', `has ${parts.length} colon-separated parts; expected 4 (secret-token:<domain>:v1:<jwk>)`);
  }
  const [, domain, version, encodedJwk] = parts as [string, string, string, string];
  if (domain.length === 0) fail('empty-domain', 'has an empty service-domain part');
  // Version strings are not secret, but only "v1" is echoed to be safe.
  if (version !== 'v1') fail('unsupported-version', 'has a version part other than "v1"');
  const problem = base64UrlProblem(encodedJwk);
  if (problem === 'empty') fail('empty-jwk', 'has an empty JWK part');
  if (problem === 'padding') fail('base64-padding', 'JWK part has "=" padding; the service uses base64url without padding');
  if (problem === 'standard-alphabet') {
    fail('base64-standard-alphabet', 'JWK part uses "+" or "/" (standard base64); the service uses base64url ("-" and "_")');
  }
  if (problem === 'invalid') fail('base64-invalid', 'JWK part is not valid base64url');
  const bytes = fromBase64UrlStrict(encodedJwk) as Buffer;
  let jwk: unknown;
  try {
    jwk = JSON.parse(bytes.toString('utf8'));
  } catch {
    fail('jwk-not-json', 'JWK part does not decode to JSON');
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) fail('jwk-not-object', 'JWK part is not a JSON object');
  const key = jwk as Record<string, unknown>;
  if (key.kty !== 'OKP') fail('jwk-kty', 'JWK has a "kty" other than "OKP"');
  if (key.crv !== 'Ed25519') fail('jwk-crv', 'JWK has a "crv" other than "Ed25519"');
  if (key.d === undefined) fail('jwk-missing-d', 'JWK has no private key "d"');
  if (key.x === undefined) fail('jwk-missing-x', 'JWK has no public key "x"');
  const d = typeof key.d === 'string' ? fromBase64UrlStrict(key.d) : undefined;
  if (d === undefined || d.length !== 32) fail('jwk-bad-d', 'JWK "d" is not 32 bytes of base64url');
  const x = typeof key.x === 'string' ? fromBase64UrlStrict(key.x) : undefined;
  if (x === undefined || x.length !== 32) fail('jwk-bad-x', 'JWK "x" is not 32 bytes of base64url');
  if (ed25519PublicX(key.d as string) !== key.x) fail('jwk-x-mismatch', 'JWK "x" is not the public key of its "d"');

  const base: Record<string, string> = { kty: 'OKP', crv: 'Ed25519' };
  if (typeof key.kid === 'string') base.kid = key.kid;
  return {
    domain,
    version,
    privateJwk: { ...base, d: key.d as string, x: key.x as string },
    publicJwk: { ...base, x: key.x as string },
    encodedJwk,
  };
}

/**
 * Observations that never fail (ruling 1): some official SDKs decode the JWK with plain base64, which
 * chokes on `-` and `_`. Works on any string; a secret that does not split into parts gets no lint.
 */
export function lintClientSecret(secret: string): SecretLint[] {
  const parts = secret.split(':');
  if (parts.length !== 4) return [];
  const encoded = parts[3] as string;
  const lints: SecretLint[] = [];
  if (/[-_]/.test(encoded)) {
    lints.push({
      level: 'INFO',
      code: 'CLIENT_SECRET_URL_SAFE_CHARS',
      message:
        'The Client Secret\'s JWK part holds "-" or "_"; SDKs that decode it with a plain base64 decoder will fail on this secret.',
    });
  }
  return lints;
}

export interface GenerateClientSecretOptions {
  /**
   * Keep generating until the base64url text has no `-` or `_`, so SDKs with plain base64 decoders work
   * (bounded at 2000 tries; each succeeds with about 0.6 % chance, so failing is about 1 in 300 000).
   */
  plainBase64Compatible?: boolean;
  kid?: string;
}

/** A fresh Ed25519 credential secret for `domain`, and its public JWK (what the service stores). */
export async function generateClientSecret(
  domain: string,
  options: GenerateClientSecretOptions = {},
): Promise<{ secret: string; publicJwk: JWK }> {
  if (domain.length === 0 || domain.includes(':')) {
    throw new HarnessError('CLIENT_SECRET_INVALID', 'The service domain of a Client Secret must be non-empty and have no ":".');
  }
  const maxTries = options.plainBase64Compatible ? 2000 : 1;
  for (let i = 0; i < maxTries; i += 1) {
    const jwk: Record<string, string> = { ...newEd25519Jwk() };
    if (options.kid !== undefined) jwk.kid = options.kid;
    const encoded = toBase64Url(JSON.stringify(jwk));
    if (options.plainBase64Compatible && /[-_]/.test(encoded)) continue;
    const { d: _d, ...publicJwk } = jwk;
    return { secret: `${CLIENT_SECRET_PREFIX}:${domain}:v1:${encoded}`, publicJwk };
  }
  throw new HarnessError('INTERNAL', 'Could not generate a Client Secret without "-" or "_" in the allowed number of tries.');
}
