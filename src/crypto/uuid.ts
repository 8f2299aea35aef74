/** UUID helpers without any JOSE dependency (the webhook hot path imports this). */
import { randomUUID } from 'node:crypto';

// Version nibble 4, RFC 4122 variant (10xx → 8, 9, a, b). Upper case is allowed (ruling 15: SHOULD accept).
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuidV4(text: string): boolean {
  return UUID_V4.test(text);
}

/** A fresh random UUID v4 (lower case). */
export function randomUuidV4(): string {
  return randomUUID();
}
