import { describe, expect, it } from 'vitest';
import { generateHmacSecret, hmacSign, hmacVerify } from '../../src/crypto/index.js';
import { hmacVerifier } from '../../src/crypto/hmac.js';

// Known answers computed once with an independent tool, not with this code:
//   printf '%s' "<input>" | openssl dgst -sha256 -hmac "$SECRET" -binary | basenc --base64url | tr -d '='
// with SECRET=Tnl_rHk7FwtEH1bhMaMDH0WD_SI2lyb26U1gyv1WkbU (a test-only value), T=1700000000,
// E=0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c. V_DECODED used
//   -mac HMAC -macopt hexkey:$(printf '%s=' "$SECRET" | basenc --base64url -d | xxd -p -c 100)
// and V_STANDARD piped to `basenc --base64` without tr.
const SECRET = 'Tnl_rHk7FwtEH1bhMaMDH0WD_SI2lyb26U1gyv1WkbU';
const T = '1700000000';
const E = '0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c';
const BODY = '{"hello":"world"}';
const V_PLAIN = 'plm77excSUGxN5p256-8IsL7aoTezQOi8Rl9Aw_u9zU'; // "$T.$E.{"hello":"world"}"
const V_UTF8 = 'OrPn71GwQ-23tM0czjnzVEHtnvozEoZ1L7U4kZEwR_U'; // "$T.$E.{"name":"Zoë ✓"}\n"
const V_EMPTY = '4tHvLYQaH5k34A359ttKC25iWQ8pb_fqILlhNgqRDlc'; // "$T.$E."
const V_DECODED = 'tBXpEh15b2-BiiEEzaVf-RBXs0vw2HQVUHVRaDOvs18'; // decoded key, "$T.$E.{"hello":"world"}"
const V_SWAPPED = 'xuiZyb_KkkqlQrHZKZAdOw6-B1cWBZXlzEDIjVoor9Q'; // "$E.$T.{"hello":"world"}"
const V_STANDARD = 'plm77excSUGxN5p256+8IsL7aoTezQOi8Rl9Aw/u9zU=';

describe('hmacSign', () => {
  it('matches openssl for string and Buffer bodies', () => {
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY })).toBe(V_PLAIN);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: Buffer.from(BODY) })).toBe(V_PLAIN);
  });

  it('signs raw bytes (multi-byte UTF-8, trailing newline) and empty bodies', () => {
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: Buffer.from('{"name":"Zoë ✓"}\n', 'utf8') })).toBe(V_UTF8);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: Buffer.alloc(0) })).toBe(V_EMPTY);
  });

  it('produces the classic mistakes on request', () => {
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY, decodedKey: true })).toBe(V_DECODED);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY, order: ['eventId', 'timestamp', 'body'] })).toBe(V_SWAPPED);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY, standardBase64: true, padded: true })).toBe(V_STANDARD);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY, padded: true })).toBe(`${V_PLAIN}=`);
    expect(hmacSign({ secret: SECRET, timestamp: T, eventId: E, body: BODY, standardBase64: true })).toBe(V_STANDARD.slice(0, -1));
  });
});

describe('hmacVerify', () => {
  const body = Buffer.from(BODY);
  it('accepts the canonical signature only', () => {
    expect(hmacVerify(SECRET, T, E, body, V_PLAIN)).toBe(true);
    expect(hmacVerify(SECRET, T, E, body, `${V_PLAIN}=`)).toBe(false);
    expect(hmacVerify(SECRET, T, E, body, V_DECODED)).toBe(false);
    expect(hmacVerify(SECRET, T, E, body, V_SWAPPED)).toBe(false);
    expect(hmacVerify(SECRET, T, E, body, V_STANDARD)).toBe(false);
    expect(hmacVerify(SECRET, T, E, body, '')).toBe(false);
  });
  it('refuses a changed body, timestamp, event ID or secret', () => {
    expect(hmacVerify(SECRET, T, E, Buffer.from(`${BODY} `), V_PLAIN)).toBe(false);
    expect(hmacVerify(SECRET, '1700000001', E, body, V_PLAIN)).toBe(false);
    expect(hmacVerify(SECRET, T, E.replace('0b9d', '1b9d'), body, V_PLAIN)).toBe(false);
    expect(hmacVerify(`${SECRET}x`, T, E, body, V_PLAIN)).toBe(false);
  });
});

describe('hmacVerifier (the reference\'s per-listener check)', () => {
  const body = Buffer.from(BODY);
  const verify = hmacVerifier(SECRET);
  it('answers as hmacVerify, call after call (its scratch bytes never leak from one call into the next)', () => {
    expect(verify(T, E, body, V_PLAIN)).toBe(true);
    for (const signature of [`${V_PLAIN}=`, V_DECODED, V_SWAPPED, V_STANDARD, '', V_PLAIN.slice(0, -1)]) {
      expect(verify(T, E, body, signature)).toBe(false);
      expect(verify(T, E, body, V_PLAIN)).toBe(true);
    }
  });
  it('refuses a signature of the right length with a character outside ASCII, even after a right one', () => {
    // 42 right characters and one of two UTF-8 bytes: 43 characters, 44 bytes, only 43 of which fit.
    expect(verify(T, E, body, `${V_PLAIN.slice(0, 42)}é`)).toBe(false);
    expect(verify(T, E, body, `${V_PLAIN.slice(0, 41)}é`)).toBe(false);
    expect(hmacVerify(SECRET, T, E, body, `${V_PLAIN.slice(0, 41)}é`)).toBe(false);
    // A character whose low byte is the right one (U+0100 + code) must not pass as that character.
    const last = V_PLAIN.charCodeAt(42);
    expect(verify(T, E, body, `${V_PLAIN.slice(0, 42)}${String.fromCharCode(0x100 + last)}`)).toBe(false);
  });
  it('keys with the secret\'s UTF-8 bytes, an empty secret included', () => {
    for (const secret of ['', 'sécret-ü', SECRET]) {
      const signature = hmacSign({ secret, timestamp: T, eventId: E, body });
      expect(hmacVerifier(secret)(T, E, body, signature)).toBe(true);
      expect(hmacVerifier(`${secret}x`)(T, E, body, signature)).toBe(false);
    }
  });
});

describe('generateHmacSecret', () => {
  it('is 256 random bits as base64url without padding', () => {
    const a = generateHmacSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(generateHmacSecret()).not.toBe(a);
  });
});
