/**
 * Pure readings of the credential formats of service.md §2.1 / §5.2 and rulings 1–2, written from the spec
 * independently of src/client (which has its own parser to sign assertions): the suites check the target's
 * credentials against this reading, so a shared bug cannot make both agree. Nothing here returns or
 * formats a secret's key material; callers build failure messages from the structural facts only.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { ResolvedCredential, ResolvedProfile } from '../../src/profile/types.js';

export interface ClientIdParts {
  randomId: string;
  hostname: string;
  useCase: string;
}

/** `<random-id>@<hostname>/<use-case>`; hostname = text between `@` and the first `/` (ruling 2). */
export function parseClientId(clientId: string): ClientIdParts | { error: string } {
  const slash = clientId.indexOf('/');
  if (slash < 0) return { error: 'no `/` separating the use-case' };
  const head = clientId.slice(0, slash);
  const at = head.indexOf('@');
  if (at < 0) return { error: 'no `@` before the first `/`' };
  if (head.indexOf('@', at + 1) >= 0) return { error: 'more than one `@` before the first `/`' };
  const parts = { randomId: head.slice(0, at), hostname: head.slice(at + 1), useCase: clientId.slice(slash + 1) };
  if (parts.randomId === '') return { error: 'empty random-id' };
  if (parts.hostname === '') return { error: 'empty hostname' };
  if (parts.useCase === '') return { error: 'empty use-case' };
  if (/\s/.test(clientId)) return { error: 'contains white space' };
  return parts;
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A DNS host name: dot-separated letter-digit-hyphen labels of 1–63 characters, 253 at most. */
export function hostnameProblem(hostname: string): string | undefined {
  if (hostname.length > 253) return 'longer than 253 characters';
  if (hostname.includes(':')) return 'holds a `:` (scheme or port)';
  const labels = hostname.split('.');
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) return bad === '' ? 'has an empty label' : `label "${bad}" is not letters, digits and inner hyphens`;
  return undefined;
}

export interface DerivedAddresses {
  hostname: string;
  tokenEndpoint: string;
  apiRoot: string;
}

/** §5.2's table as a pure function of the Client ID. */
export function deriveAddresses(clientId: string): DerivedAddresses | { error: string } {
  const parts = parseClientId(clientId);
  if ('error' in parts) return parts;
  return {
    hostname: parts.hostname,
    tokenEndpoint: `https://${parts.hostname}/auth/v1/token`,
    apiRoot: `https://${parts.hostname}/api/v1`,
  };
}

/** The URL parses as https on exactly that host (default port) with exactly that path and nothing else. */
export function urlProblem(text: string, hostname: string, path: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'does not parse as a URL';
  }
  if (url.protocol !== 'https:') return `scheme is ${url.protocol}`;
  if (url.hostname !== hostname.toLowerCase()) return `host parses as "${url.hostname}"`;
  if (url.port !== '') return `has port ${url.port}`;
  if (url.pathname !== path) return `path parses as "${url.pathname}"`;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return 'carries a query, fragment or user part';
  return undefined;
}

/** The four colon-separated parts of a Client Secret (ruling 1), or why there are not four. */
export function splitSecret(secret: string): { prefix: string; serviceDomain: string; version: string; jwkText: string } | { error: string } {
  const parts = secret.split(':');
  if (parts.length !== 4) return { error: `${parts.length} colon-separated part(s), expected 4` };
  const [prefix, serviceDomain, version, jwkText] = parts as [string, string, string, string];
  return { prefix, serviceDomain, version, jwkText };
}

const BASE64URL_NO_PAD = /^[A-Za-z0-9_-]+$/;

/** Whether text is base64url without padding (and of a length base64 can have). */
export function isBase64UrlNoPad(text: string): boolean {
  return BASE64URL_NO_PAD.test(text) && text.length % 4 !== 1;
}

/** The JWK JSON behind the secret's last segment, or why it cannot be read. Never echoes the text. */
export function decodeJwk(jwkText: string): { ok: true; jwk: Record<string, unknown> } | { ok: false; error: string } {
  if (!isBase64UrlNoPad(jwkText)) return { ok: false, error: 'is not base64url without padding' };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(jwkText, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, error: 'does not decode to JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'decodes to JSON that is not an object' };
  return { ok: true, jwk: value as Record<string, unknown> };
}

/** Length in bytes of a base64url member, or undefined when it is not base64url text. */
export function base64UrlBytes(value: unknown): number | undefined {
  if (typeof value !== 'string' || !isBase64UrlNoPad(value)) return undefined;
  return Buffer.from(value, 'base64url').length;
}

/**
 * The Ed25519 public key (base64url) that a private key `d` (its 32-octet seed) yields. The seed is given to
 * node:crypto as PKCS #8 (RFC 8410: a fixed 16-octet DER prefix, then the seed): as a JWK it would need the
 * `x` under test, and Node 24.22 refuses a JWK without one.
 */
export function ed25519PublicX(d: string): string {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(d, 'base64url')]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return String(jwk.x);
}

export interface NamedCredential {
  /** Profile key: `primary`, `ipRestricted`, `expired`. */
  key: string;
  credential: ResolvedCredential;
}

/** Every credential the profile lists, primary first. */
export function profileCredentials(profile: ResolvedProfile): NamedCredential[] {
  return Object.entries(profile.credentials)
    .filter((entry): entry is [string, ResolvedCredential] => entry[1] !== undefined)
    .map(([key, credential]) => ({ key, credential }));
}
