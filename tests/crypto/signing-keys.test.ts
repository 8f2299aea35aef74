import { createPublicKey, generateKeyPair, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildJwks, checkSigningJwk, generateSigningKey, privateJwkValues, toPublicJwk } from '../../src/crypto/index.js';

describe('generateSigningKey', () => {
  it('makes RSA 2048, P-256 and Ed25519 private JWKs with kid, alg and use', async () => {
    const rsa = await generateSigningKey('RS256', 'r1');
    expect(rsa).toMatchObject({ kty: 'RSA', kid: 'r1', alg: 'RS256', use: 'sig' });
    expect(Buffer.from(rsa.n as string, 'base64url')).toHaveLength(256);
    expect(await generateSigningKey('ES256')).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    const ed = await generateSigningKey('EdDSA');
    expect(ed).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    // Default kid: RFC 7638 thumbprint, base64url of 32 bytes.
    expect(ed.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('toPublicJwk / buildJwks', () => {
  it('keeps only public members and metadata', async () => {
    const rsa = await generateSigningKey('RS256', 'r1');
    const pub = toPublicJwk(rsa);
    expect(Object.keys(pub).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    // still a usable public key
    expect(createPublicKey({ key: pub as JsonWebKey, format: 'jwk' }).asymmetricKeyType).toBe('rsa');
    const ec = toPublicJwk(await generateSigningKey('ES256', 'e1'));
    expect(Object.keys(ec).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(toPublicJwk({ kty: 'oct', k: 'secret', kid: 'h' })).toEqual({ kty: 'oct', kid: 'h' });
  });

  it('buildJwks serves public halves only', async () => {
    const keys = [await generateSigningKey('RS256'), await generateSigningKey('EdDSA')];
    const jwks = buildJwks(keys);
    expect(jwks.keys).toHaveLength(2);
    const text = JSON.stringify(jwks);
    for (const key of keys) for (const value of privateJwkValues(key)) expect(text).not.toContain(value);
  });
});

describe('checkSigningJwk', () => {
  it('accepts generated keys', async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) expect(checkSigningJwk(await generateSigningKey(alg))).toEqual([]);
  });

  it('names the parameter that is wrong, never a value', async () => {
    const es = await generateSigningKey('ES256', 'e1');
    const ed = await generateSigningKey('EdDSA', 'd1');
    const paths = (value: unknown): string[] => checkSigningJwk(value).map((p) => p.path);
    expect(paths('nope')).toEqual(['']);
    expect(paths({ ...es, alg: 'HS256' })).toEqual(['alg']);
    expect(paths({ ...es, alg: 'PS256' })).toEqual(['alg']);
    expect(paths({ ...es, kid: '' })).toEqual(['kid']);
    expect(paths({ ...es, alg: 'RS256' })).toEqual(['kty']);
    expect(paths({ ...es, crv: 'P-384' })).toContain('crv');
    expect(paths({ ...es, use: 'enc' })).toEqual(['use']);
    expect(paths(toPublicJwk(es))).toEqual(['d']);
    expect(paths({ ...ed, x: toPublicJwk(es).x })).toEqual(['x']);
    const problems = checkSigningJwk({ ...ed, x: (await generateSigningKey('EdDSA')).x });
    expect(problems.map((p) => p.path)).toEqual(['x']);
    expect(JSON.stringify(problems)).not.toContain(ed.d as string);
  });

  it('refuses RSA keys shorter than 2048 bits', async () => {
    // Generated asynchronously: a synchronous job followed by a JWK export can deadlock Node (src/crypto/ed25519.ts).
    const small = (await promisify(generateKeyPair)('rsa', { modulusLength: 1024 })).privateKey.export({ format: 'jwk' });
    expect(checkSigningJwk({ ...small, kid: 's', alg: 'RS256' }).map((p) => p.path)).toEqual(['n']);
  });
});
