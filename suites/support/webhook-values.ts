/**
 * Values the webhook suites send: event IDs of every UUID flavour, JSON bodies of known shape, and the
 * HMAC signatures the suites compute themselves when the client's options cannot express the breakage
 * (a changed event ID, a signature over a missing header, a hex digest).
 *
 * Event IDs of requests meant to be accepted are random (not seeded): with the same --seed twice against a
 * persistent target, a seeded ID would already be on record and get 409. Everything meant to be refused,
 * and every body, comes from the check's seeded faker, so a failure reproduces.
 */
import { createHash } from 'node:crypto';
import { hmacSign } from '../../src/crypto/hmac.js';
import { randomUuidV4 } from '../../src/crypto/uuid.js';
import type { Faker } from '../../src/data/fake.js';
import { HarnessError } from '../../src/errors.js';
import type { HmacListenerKey, JwtListenerKey, ResolvedHmacListener, ResolvedJwtListener, ResolvedProfile } from '../../src/profile/types.js';

/** A fresh UUID v4 for a request that should be accepted (see the module comment for why not seeded). */
export function freshEventId(): string {
  return randomUuidV4();
}

function hex(faker: Faker, length: number): string {
  return faker.string.hexadecimal({ length, casing: 'lower', prefix: '' });
}

/** 32 hex digits as 8-4-4-4-12. */
export function formatUuid(hex32: string): string {
  return `${hex32.slice(0, 8)}-${hex32.slice(8, 12)}-${hex32.slice(12, 16)}-${hex32.slice(16, 20)}-${hex32.slice(20, 32)}`;
}

/** Sets the version nibble and the RFC 4122 variant (10xx) on 16 bytes, as RFC 4122 §4.3 / §4.4 do. */
function stamp(bytes: Buffer, version: number): string {
  const out = Buffer.from(bytes.subarray(0, 16));
  out[6] = (out[6]! & 0x0f) | (version << 4);
  out[8] = (out[8]! & 0x3f) | 0x80;
  return formatUuid(out.toString('hex'));
}

// RFC 4122 Appendix C: the DNS namespace of name-based UUIDs.
const NAMESPACE_DNS = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');

/** A time-based UUID v1 at `nowSeconds` (RFC 4122 §4.2), random clock sequence and node. */
export function uuidV1(faker: Faker, nowSeconds: number): string {
  // 100-ns intervals since 1582-10-15, the Gregorian reform.
  const ticks = BigInt(Math.floor(nowSeconds * 1000)) * 10_000n + 0x01b21dd213814000n;
  const timeLow = (ticks & 0xffffffffn).toString(16).padStart(8, '0');
  const timeMid = ((ticks >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const timeHi = ((ticks >> 48n) & 0x0fffn).toString(16).padStart(3, '0');
  const clockSeq = (0x8000 | (parseInt(hex(faker, 4), 16) & 0x3fff)).toString(16);
  return `${timeLow}-${timeMid}-1${timeHi}-${clockSeq}-${hex(faker, 12)}`;
}

/** A name-based UUID (RFC 4122 §4.3) in the DNS namespace: v3 hashes with MD5, v5 with SHA-1. */
export function nameBasedUuid(version: 3 | 5, name: string): string {
  const hash = createHash(version === 3 ? 'md5' : 'sha1').update(NAMESPACE_DNS).update(name, 'utf8').digest();
  return stamp(hash, version);
}

/** A name-based UUID v3 (MD5) of a seeded name. */
export function uuidV3(faker: Faker): string {
  return nameBasedUuid(3, faker.internet.domainName());
}

/** A name-based UUID v5 (SHA-1) of a seeded name. */
export function uuidV5(faker: Faker): string {
  return nameBasedUuid(5, faker.internet.domainName());
}

/** A UUID v7 (RFC 9562 §5.7): 48-bit Unix milliseconds, then random bits. */
export function uuidV7(faker: Faker, nowSeconds: number): string {
  const ms = Math.floor(nowSeconds * 1000).toString(16).padStart(12, '0');
  return stamp(Buffer.from(ms + hex(faker, 20), 'hex'), 7);
}

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Version nibble 4 but a variant other than RFC 4122's 10xx (NCS 0xxx, Microsoft 110x, reserved 111x). */
export function uuidV4WrongVariant(faker: Faker): string {
  const variant = faker.helpers.arrayElement(['0', '3', '5', '7', 'c', 'd', 'e', 'f']);
  const digits = hex(faker, 32).split('');
  digits[12] = '4';
  digits[16] = variant;
  return formatUuid(digits.join(''));
}

/** Text that is not a UUID in any spelling, shaped like an ID a sender might invent. */
export function notAUuid(faker: Faker): string {
  return `evt_${faker.string.alphanumeric(24)}`;
}

/** A small JSON object of mixed types: what an external system typically posts. */
export function sampleBody(faker: Faker): Record<string, unknown> {
  return {
    event: `${faker.hacker.noun()}.${faker.hacker.verb()}`.replace(/\s+/g, '_'),
    user: { id: faker.string.alphanumeric(12), email: faker.internet.email(), name: faker.person.fullName() },
    amount: faker.number.int({ min: 1, max: 100_000 }),
    active: faker.datatype.boolean(),
  };
}

/**
 * A body that catches lossy handling: nesting, arrays of mixed types, null, floats, negative numbers,
 * empty containers, JSON escapes, non-ASCII text (accents, CJK, an emoji outside the BMP).
 */
export function nestedUnicodeBody(faker: Faker): Record<string, unknown> {
  return {
    name: `${faker.person.firstName()} Ñúñez-Søren 王小明 🚀`,
    quote: 'He said "hi"\\n\ttab / slash \u0001',
    nested: {
      level2: { level3: { level4: [1, -2.5, 1e21, true, null, 'x', { deep: faker.lorem.word() }] } },
      emptyObject: {},
      emptyArray: [],
    },
    tags: faker.helpers.multiple(() => faker.lorem.word(), { count: 5 }),
    nothing: null,
    ratio: 0.1 + 0.2,
  };
}

/** The HMAC listener the check needs; the check's `needs` already skipped it when absent. */
export function hmacListener(profile: ResolvedProfile, key: HmacListenerKey = 'hmac'): ResolvedHmacListener {
  const listener = profile.webhooks[key];
  if (!listener) throw new HarnessError('INTERNAL', `check ran without webhooks.${key}: its needs must list it`);
  return listener;
}

export function jwtListener(profile: ResolvedProfile, key: JwtListenerKey = 'jwt'): ResolvedJwtListener {
  const listener = profile.webhooks[key];
  if (!listener) throw new HarnessError('INTERNAL', `check ran without webhooks.${key}: its needs must list it`);
  return listener;
}

/** The listener's full webhook endpoint URL: the `aud` of its JWTs (§5.4 JWT). */
export function webhookUrl(profile: ResolvedProfile, listenerId: string): string {
  return `${profile.webhookBaseUrl}/api/v1/webhooks/incoming/${encodeURIComponent(listenerId)}`;
}

/**
 * The URL with its host in upper case (an IP address has none: then the whole URL): the same resource for
 * a URL parser, another string for a verifier that compares `aud` or `sub` as it must (exactly).
 */
export function upperCaseHost(urlText: string): string {
  const host = new URL(urlText).host;
  const upper = urlText.replace(host, host.toUpperCase());
  return upper === urlText ? urlText.toUpperCase() : upper;
}

/** Whole Unix seconds as a Webhook-Timestamp value, from the target's clock. */
export function timestampOf(nowSeconds: number): string {
  return String(Math.floor(nowSeconds));
}

export interface SignedParts {
  timestamp: string;
  eventId: string;
  body: string;
}

/** The valid signature (§5.4 HMAC) of the given parts. */
export function validSignature(secret: string, parts: SignedParts): string {
  return hmacSign({ secret, ...parts });
}

/**
 * Event IDs are tried until the valid base64url signature contains `-` or `_`, so the standard-alphabet
 * form really differs. Each try fails with probability (62/64)^43 ≈ 0.25; 40 tries leave ~1e-24.
 */
export function partsWithUrlSafeChars(secret: string, timestamp: string, body: string, tries = 40): SignedParts | undefined {
  for (let i = 0; i < tries; i += 1) {
    const parts = { timestamp, eventId: freshEventId(), body };
    if (/[-_]/.test(validSignature(secret, parts))) return parts;
  }
  return undefined;
}
