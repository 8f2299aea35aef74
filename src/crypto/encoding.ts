/**
 * Byte/text encodings shared by the credential and JWT modules. node:crypto only, so cheap to import.
 */
import { createHash } from 'node:crypto';

/** RFC 4648 §5 alphabet, no padding: what JOSE and the service's secrets use. */
const BASE64URL_NO_PAD = /^[A-Za-z0-9_-]*$/;

export function toBase64Url(data: Buffer | Uint8Array | string): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * Strict base64url (no padding) decode. Buffer.from(text, 'base64url') silently skips bad characters,
 * which would hide exactly the mistakes the harness must report, so the alphabet and length are checked
 * first. Returns undefined when the text is not strict base64url.
 */
export function fromBase64UrlStrict(text: string): Buffer | undefined {
  if (!BASE64URL_NO_PAD.test(text)) return undefined;
  // A length of 1 mod 4 cannot come from any byte string.
  if (text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Non-canonical trailing bits (e.g. "AB" vs "AA" for one byte) would round-trip to other text.
  if (bytes.toString('base64url') !== text) return undefined;
  return bytes;
}

/** What is wrong with a would-be base64url text, for precise error reasons. */
export function base64UrlProblem(text: string): 'empty' | 'padding' | 'standard-alphabet' | 'invalid' | undefined {
  if (text.length === 0) return 'empty';
  if (text.includes('=')) return 'padding';
  if (/[+/]/.test(text)) return 'standard-alphabet';
  return fromBase64UrlStrict(text) === undefined ? 'invalid' : undefined;
}

/** base64url (no padding) of the SHA-256 of the bytes: the `htb_s256` claim. */
export function sha256Base64Url(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('base64url');
}
