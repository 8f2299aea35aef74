/**
 * HMAC webhook signatures (service.md §5.4, ruling 21). node:crypto only: this is the load hot path.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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
  // hmacSign's default form, written out: the reference's hot path (no options, no padding to strip:
  // Node's base64url never pads). tests/crypto/hmac.test.ts holds the two to the same answers.
  const expected = Buffer.from(createHmac('sha256', secret).update(timestamp).update('.').update(eventId).update('.').update(body).digest('base64url'), 'latin1');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** A listener secret as the service generates it: 256 random bits, base64url without padding (§2.5). */
export function generateHmacSecret(): string {
  return randomBytes(HMAC_SECRET_BITS / 8).toString('base64url');
}
