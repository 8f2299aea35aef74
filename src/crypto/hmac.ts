/**
 * HMAC webhook signatures (service.md §5.4, ruling 21). node:crypto only: this is the load hot path.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { HMAC_SECRET_BITS } from '../spec-numbers.js';

export type HmacPart = 'timestamp' | 'eventId' | 'body';

export const HMAC_DEFAULT_ORDER: readonly HmacPart[] = ['timestamp', 'eventId', 'body'];

export interface HmacSignInput {
  /** The secret string exactly as the service displayed it. */
  secret: string;
  /** `Webhook-Timestamp` value. */
  timestamp: string;
  /** `Webhook-Event-Id` value. */
  eventId: string;
  /** Raw body; a string is taken as UTF-8. */
  body: Buffer | string;
  /** Key = base64url-decoded secret instead of its UTF-8 bytes (the classic client mistake). */
  decodedKey?: boolean;
  /** Order of the parts joined by "."; default timestamp, eventId, body. */
  order?: readonly HmacPart[];
  /** Keep "=" padding. */
  padded?: boolean;
  /** Standard base64 alphabet ("+" and "/") instead of base64url. */
  standardBase64?: boolean;
  /** The digest as lower-case hex (the common webhook convention §5.4 does not use). */
  hex?: boolean;
  /** What joins the parts; default ".". */
  separator?: string;
}


export function hmacSign(input: HmacSignInput): string {
  const key = input.decodedKey ? Buffer.from(input.secret, 'base64url') : Buffer.from(input.secret, 'utf8');
  // `<timestamp>.<event_id>.<raw body>`, fed part by part (no concatenated copy of the body on the hot path).
  const values: Record<HmacPart, Buffer | string> = { timestamp: input.timestamp, eventId: input.eventId, body: input.body };
  const hmac = createHmac('sha256', key);
  (input.order ?? HMAC_DEFAULT_ORDER).forEach((part, index) => {
    if (index > 0) hmac.update(input.separator ?? '.');
    // Strings are hashed as UTF-8 (update's default); Buffers as the raw bytes received.
    hmac.update(values[part]);
  });
  const digest = hmac.digest();
  if (input.hex) return digest.toString('hex');
  let text = digest.toString(input.standardBase64 ? 'base64' : 'base64url');
  // Node's base64 always pads and base64url never does; normalise to what was asked for.
  text = text.replace(/=+$/, '');
  if (input.padded) text += '='.repeat((4 - (text.length % 4)) % 4);
  return text;
}

/**
 * The reference implementation's check: exactly base64url without padding over the canonical input.
 * Constant-time compare so response timing does not leak how much of a guess was right.
 */
export function hmacVerify(secret: string, timestamp: string, eventId: string, body: Buffer, signature: string): boolean {
  return hmacVerifier(secret)(timestamp, eventId, body, signature);
}

/** A listener's check with its key prepared once: what the reference calls per webhook. */
export type HmacVerifier = (timestamp: string, eventId: string, body: Buffer, signature: string) => boolean;

/** SHA-256 in base64url without padding: always 43 characters. */
const SIGNATURE_LENGTH = 43;
// Scratch for the constant-time compare: the check is synchronous, so one pair per thread is enough, and a
// webhook costs no Buffer for it.
const givenBytes = Buffer.alloc(SIGNATURE_LENGTH);
const expectedBytes = Buffer.alloc(SIGNATURE_LENGTH);

/**
 * hmacVerify for one secret. hmacSign's default form, written out for the reference's hot path: the key is
 * a KeyObject made once (createHmac with a string key converts it on every call), the prefix
 * `<timestamp>.<eventId>.` goes in one update, and Node's base64url never pads, so there is nothing to strip.
 * tests/crypto/hmac.test.ts holds the two to the same answers.
 */
export function hmacVerifier(secret: string): HmacVerifier {
  // The secret's UTF-8 bytes are the key (ruling 21), as createHmac makes of a string.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (timestamp, eventId, body, signature) => {
    // The answer is right only when the signature is the same 43 ASCII characters as the digest; its
    // length says nothing of the secret, so it may end the check early.
    if (signature.length !== SIGNATURE_LENGTH) return false;
    const expected = createHmac('sha256', key).update(`${timestamp}.${eventId}.`).update(body).digest('base64url');
    // Written as UTF-8, as the bytes received: 43 bytes written from 43 characters means every one was
    // ASCII (a character outside it is 2 to 4 bytes, and none of its bytes is a base64url character).
    if (givenBytes.write(signature, 0, SIGNATURE_LENGTH, 'utf8') !== SIGNATURE_LENGTH) return false;
    expectedBytes.write(expected, 0, SIGNATURE_LENGTH, 'latin1');
    return timingSafeEqual(givenBytes, expectedBytes);
  };
}

/** A listener secret as the service generates it: 256 random bits, base64url without padding (§2.5). */
export function generateHmacSecret(): string {
  return randomBytes(HMAC_SECRET_BITS / 8).toString('base64url');
}
