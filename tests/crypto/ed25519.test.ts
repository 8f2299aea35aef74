import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ed25519PublicX, newEd25519Jwk } from '../../src/crypto/ed25519.js';

const hex = (text: string): string => Buffer.from(text, 'hex').toString('base64url');

describe('Ed25519 keys without a key-generation job', () => {
  it('derives the public key of RFC 8032 §7.1 test 1', () => {
    const d = hex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(ed25519PublicX(d)).toBe(hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'));
  });

  it('makes a fresh key pair whose public half verifies what its private half signs', () => {
    const jwk = newEd25519Jwk();
    expect(Object.keys(jwk)).toEqual(['kty', 'crv', 'd', 'x']);
    expect(Buffer.from(jwk.d, 'base64url')).toHaveLength(32);
    const message = Buffer.from('conformance');
    const signature = sign(null, message, createPrivateKey({ key: jwk, format: 'jwk' }));
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    expect(verify(null, message, publicKey, signature)).toBe(true);
  });

  it('never repeats a key', () => {
    const seen = new Set(Array.from({ length: 200 }, () => newEd25519Jwk().d));
    expect(seen.size).toBe(200);
  });
});
