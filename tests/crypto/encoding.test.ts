import { describe, expect, it } from 'vitest';
import { decodeJwtParts, fromBase64UrlStrict, isUuidV4, randomUuidV4, sha256Base64Url } from '../../src/crypto/index.js';

describe('isUuidV4 (ruling 15)', () => {
  it.each([
    ['0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c', true],
    ['0B9D2C7E-5F7A-4C1E-8A3B-2D4E6F8A0B1C', true],
    ['0b9d2c7e-5f7a-4c1e-ba3b-2d4e6f8a0b1c', true],
    ['0b9d2c7e-5f7a-1c1e-9a3b-2d4e6f8a0b1c', false], // v1
    ['0b9d2c7e-5f7a-7c1e-9a3b-2d4e6f8a0b1c', false], // v7
    ['0b9d2c7e-5f7a-4c1e-ca3b-2d4e6f8a0b1c', false], // Microsoft variant
    ['0b9d2c7e-5f7a-4c1e-7a3b-2d4e6f8a0b1c', false], // NCS variant
    ['00000000-0000-0000-0000-000000000000', false], // nil
    ['0b9d2c7e5f7a4c1e9a3b2d4e6f8a0b1c', false],
    ['{0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c}', false],
    ['0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c\n', false],
    ['', false],
  ])('%j → %s', (text, expected) => {
    expect(isUuidV4(text)).toBe(expected);
  });
  it('randomUuidV4 is a v4', () => {
    expect(isUuidV4(randomUuidV4())).toBe(true);
  });
});

describe('encodings', () => {
  it('sha256Base64Url matches openssl', () => {
    // printf '' | openssl dgst -sha256 -binary | basenc --base64url | tr -d =
    expect(sha256Base64Url('')).toBe('47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU');
    expect(sha256Base64Url(Buffer.from('{"hello":"world"}'))).toBe('k6I5cakU5erL8KjSUVTNownDwccvu5kU1Hxg88toFYg');
  });
  it('fromBase64UrlStrict refuses padding, standard alphabet and non-canonical text', () => {
    expect(fromBase64UrlStrict('aGk')?.toString()).toBe('hi');
    expect(fromBase64UrlStrict('aGk=')).toBeUndefined();
    expect(fromBase64UrlStrict('a+k')).toBeUndefined();
    expect(fromBase64UrlStrict('aGl')).toBeUndefined(); // trailing bits set
    expect(fromBase64UrlStrict('a')).toBeUndefined();
  });
  it('decodeJwtParts tolerates junk', () => {
    expect(decodeJwtParts('x.y')).toEqual({ header: undefined, payload: undefined, signature: '' });
  });
});
