/**
 * Values the attack suites send: bodies whose size in bytes and in characters differ, JSON with raw bytes
 * that are not UTF-8, event IDs of version 4 with another RFC 4122 variant.
 */
import type { Faker } from '../../src/data/fake.js';
import { formatUuid, sampleBody } from './webhook-values.js';

/** Multi-byte characters of 2, 3 and 4 UTF-8 bytes (é, €, 😀): 9 bytes, 4 UTF-16 code units. */
const MULTI_BYTE = 'é€😀';

/**
 * `{"padding":"…"}` of exactly `bytes` UTF-8 bytes, the padding made of {@link MULTI_BYTE} repeated, then
 * ASCII to fill the last few bytes. Far fewer characters than bytes.
 */
export function multiByteBody(bytes: number): string {
  const frame = Buffer.byteLength('{"padding":""}');
  const unit = Buffer.byteLength(MULTI_BYTE);
  const room = bytes - frame;
  const units = Math.max(0, Math.floor(room / unit));
  return `{"padding":"${MULTI_BYTE.repeat(units)}${'x'.repeat(room - units * unit)}"}`;
}

/** A JSON object whose `name` string holds `bytes` between two ASCII letters: valid JSON but for them. */
export function bodyWithBytes(faker: Faker, bytes: number[]): Buffer {
  const [head, tail] = JSON.stringify({ ...sampleBody(faker), name: 'ab\u0000cd' }).split('\\u0000') as [string, string];
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(bytes), Buffer.from(tail, 'utf8')]);
}

/** Version 4 and the given variant nibble in position 17 (the first digit of the fourth group). */
export function uuidV4WithVariant(faker: Faker, variant: string): string {
  const digits = faker.string.hexadecimal({ length: 32, casing: 'lower', prefix: '' }).split('');
  digits[12] = '4';
  digits[16] = variant;
  return formatUuid(digits.join(''));
}
