/**
 * Opaque page tokens (service.md §4.4; rulings 10–12): the offset of the next item, authenticated with an
 * HMAC over the listing's scope (the operation, its app, its filters) and the offset under a key that lives
 * as long as the reference. A token edited by hand, made up, or taken from another listing fails the MAC
 * and gets 400.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface PageTokenCodec {
  encode(scope: string, offset: number): string;
  /** The offset, or undefined when the token is not one this codec issued for that listing. */
  decode(scope: string, token: string): number | undefined;
}

export function createPageTokenCodec(key: Buffer = randomBytes(32)): PageTokenCodec {
  const mac = (scope: string, offset: number): Buffer =>
    createHmac('sha256', key).update(`${scope}\n${offset}`).digest().subarray(0, 16);
  const encode = (scope: string, offset: number): string =>
    `${Buffer.from(String(offset)).toString('base64url')}.${mac(scope, offset).toString('base64url')}`;
  return {
    encode,
    decode(scope, token) {
      const parts = token.split('.');
      if (parts.length !== 2) return undefined;
      const offsetText = Buffer.from(parts[0] as string, 'base64url').toString('latin1');
      if (!/^\d{1,9}$/.test(offsetText)) return undefined;
      const offset = Number(offsetText);
      const given = Buffer.from(parts[1] as string, 'base64url');
      const expected = mac(scope, offset);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      // Only the canonical spelling is valid (base64url decoding tolerates stray characters).
      return token === encode(scope, offset) ? offset : undefined;
    },
  };
}
