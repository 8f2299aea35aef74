import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildClientAssertion,
  decodeJwtParts,
  generateClientSecret,
  verifyClientAssertion,
  type AssertionRefusal,
  type JWK,
} from '../../src/crypto/index.js';
import type { AssertionOptions } from '../../src/client/types.js';
import { independentVerify } from './independent-verify.js';

const CLIENT_ID = 'brave-otter-4821@acme.example.com/conformance';
const DOMAIN = 'acme.example.com';
const NOW = 1_700_000_000;

let secret: string;
let publicJwk: JWK;
beforeAll(async () => {
  ({ secret, publicJwk } = await generateClientSecret('svc.example'));
});

const build = (options: AssertionOptions = {}): Promise<string> =>
  buildClientAssertion({ clientId: CLIENT_ID, clientSecret: secret, audience: DOMAIN, now: NOW, ...options });
const verify = (jwt: string, now = NOW) => verifyClientAssertion(jwt, { clientId: CLIENT_ID, publicJwk, tenantDomain: DOMAIN, now });

describe('buildClientAssertion (ruling 3)', () => {
  it('builds the SDK-shaped default, signed EdDSA by the secret key (checked without jose)', async () => {
    const jwt = await build();
    const verified = independentVerify(jwt, publicJwk);
    expect(verified?.header).toEqual({ alg: 'EdDSA' });
    expect(verified?.payload).toEqual({ iss: CLIENT_ID, sub: CLIENT_ID, aud: DOMAIN, iat: NOW, nbf: NOW - 120, exp: NOW + 120 });
  });

  it('applies every claim option', async () => {
    const { payload } = decodeJwtParts(
      await build({ expIn: 600, nbfIn: null, iat: null, aud: [DOMAIN], iss: 'other-iss', sub: 'other-sub', claims: { jti: 'j1', nonce: 'n' } }),
    );
    expect(payload).toEqual({ iss: 'other-iss', sub: 'other-sub', aud: [DOMAIN], exp: NOW + 600, jti: 'j1', nonce: 'n' });
    expect(decodeJwtParts(await build({ expIn: null })).payload).not.toHaveProperty('exp');
    expect(decodeJwtParts(await build({ iat: NOW - 5, nbfIn: -10 })).payload).toMatchObject({ iat: NOW - 5, nbf: NOW - 10 });
  });

  it('adds header parameters and still signs them', async () => {
    const jwt = await build({ header: { kid: 'k1', typ: 'JWT', nonce: 'abc' } });
    expect(independentVerify(jwt, publicJwk)?.header).toEqual({ alg: 'EdDSA', kid: 'k1', typ: 'JWT', nonce: 'abc' });
  });

  it('otherKey signs with a key whose signature the secret key does not verify', async () => {
    const jwt = await build({ otherKey: true });
    expect(decodeJwtParts(jwt).header).toEqual({ alg: 'EdDSA' });
    expect(independentVerify(jwt, publicJwk)).toBeUndefined();
  });

  it('algNone gives an unsigned token with an empty signature part', async () => {
    const jwt = await build({ algNone: true });
    expect(jwt.endsWith('.')).toBe(true);
    const decoded = decodeJwtParts(jwt);
    expect(decoded.header).toEqual({ alg: 'none' });
    expect(decoded.signature).toBe('');
    expect(decoded.payload).toMatchObject({ iss: CLIENT_ID, exp: NOW + 120 });
  });
});

describe('verifyClientAssertion', () => {
  it('accepts the default, an array audience, and kid/typ/nonce headers', async () => {
    expect(await verify(await build())).toEqual({ ok: true });
    expect(await verify(await build({ aud: [DOMAIN] }))).toEqual({ ok: true });
    expect(await verify(await build({ header: { kid: 'whatever', typ: 'JWT', nonce: 'n' } }))).toEqual({ ok: true });
    expect(await verify(await build({ expIn: 300, nbfIn: null, iat: null }))).toEqual({ ok: true });
  });

  const refusals: Array<[string, AssertionOptions, AssertionRefusal]> = [
    ['no exp', { expIn: null }, 'exp-missing'],
    ['exp 10 minutes ahead', { expIn: 600 }, 'exp-too-far'],
    ['exp in the past', { expIn: -60, nbfIn: -120 }, 'expired'],
    ['exp not a number', { claims: { exp: 'soon' } }, 'exp-invalid'],
    ['wrong aud', { aud: 'other.example.com' }, 'aud-mismatch'],
    ['aud with scheme', { aud: `https://${DOMAIN}` }, 'aud-mismatch'],
    ['aud array of two', { aud: [DOMAIN, 'other.example.com'] }, 'aud-mismatch'],
    ['wrong iss', { iss: 'someone@acme.example.com/x' }, 'iss-mismatch'],
    ['wrong sub', { sub: 'someone@acme.example.com/x' }, 'sub-mismatch'],
    ['nbf in the future', { nbfIn: 60 }, 'nbf-in-future'],
    ['another key', { otherKey: true }, 'bad-signature'],
    ['alg none', { algNone: true }, 'alg-not-allowed'],
    ['alg relabelled', { header: { alg: 'ES256' } }, 'alg-not-allowed'],
  ];
  it.each(refusals)('refuses %s', async (_name, options, reason) => {
    let jwt: string;
    try {
      jwt = await build(options);
    } catch {
      // A relabelled alg cannot be signed by an Ed25519 key; forge it by hand instead.
      const valid = (await build()).split('.');
      jwt = [Buffer.from(JSON.stringify({ alg: 'ES256' })).toString('base64url'), valid[1], valid[2]].join('.');
    }
    expect(await verify(jwt)).toMatchObject({ ok: false, reason });
  });

  it('uses the injected clock, not the machine clock', async () => {
    const jwt = await build();
    expect(await verify(jwt, NOW + 110)).toEqual({ ok: true });
    expect(await verify(jwt, NOW + 200)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('tolerates a few seconds of skew, no more', async () => {
    expect(await verify(await build({ expIn: 303 }))).toEqual({ ok: true });
    expect(await verify(await build({ expIn: 310 }))).toMatchObject({ ok: false, reason: 'exp-too-far' });
    expect(await verify(await build({ nbfIn: 3 }))).toEqual({ ok: true });
  });

  it('refuses garbage', async () => {
    expect(await verify('not.a.jwt')).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await verify('')).toMatchObject({ ok: false });
  });
});
