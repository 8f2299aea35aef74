import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildWebhookClaims,
  decodeJwtParts,
  generateSigningKey,
  sha256Base64Url,
  signWebhookJwt,
  toPublicJwk,
  verifyWebhookJwt,
  type JWK,
  type JwtAlg,
  type SigningJwk,
  type WebhookJwtRefusal,
} from '../../src/crypto/index.js';
import { independentVerify } from './independent-verify.js';

const BASE = 'https://acme.example.com';
const URL_ = `${BASE}/webhooks/v1/wh_1`;
const EVENT = '0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c';
const BODY = Buffer.from('{"hello":"world"}');
const NOW = 1_700_000_000;
const ALGS: JwtAlg[] = ['RS256', 'ES256', 'EdDSA'];

const keys = new Map<JwtAlg, SigningJwk>();
beforeAll(async () => {
  for (const alg of ALGS) keys.set(alg, await generateSigningKey(alg, `kid-${alg}`));
});
const key = (alg: JwtAlg): SigningJwk => keys.get(alg) as SigningJwk;
const lookup = async (kid: string): Promise<JWK | undefined> => {
  for (const k of keys.values()) if (k.kid === kid) return toPublicJwk(k);
  return undefined;
};
const claims = (): Record<string, unknown> => buildWebhookClaims({ baseUrl: BASE, webhookUrl: URL_, eventId: EVENT, body: BODY, now: NOW });
const verify = (jwt: string, body = BODY, now = NOW) =>
  verifyWebhookJwt(jwt, lookup, { baseUrl: BASE, webhookUrl: URL_, eventId: EVENT, body, now });

describe('buildWebhookClaims', () => {
  it('holds every claim of §5.4', () => {
    expect(claims()).toEqual({
      sub: BASE,
      aud: URL_,
      iat: NOW,
      exp: NOW + 300,
      jti: EVENT,
      htm: 'POST',
      // `printf '{"hello":"world"}' | openssl dgst -sha256 -binary | basenc --base64url | tr -d =`
      htb_s256: 'k6I5cakU5erL8KjSUVTNownDwccvu5kU1Hxg88toFYg',
    });
    expect(buildWebhookClaims({ baseUrl: BASE, webhookUrl: URL_, eventId: EVENT, body: BODY, now: NOW, expIn: 60 }).exp).toBe(NOW + 60);
  });
});

describe('signWebhookJwt', () => {
  it.each(ALGS)('%s tokens verify with a node:crypto-only verifier', async (alg) => {
    const jwt = await signWebhookJwt({ key: key(alg), claims: claims() });
    const verified = independentVerify(jwt, toPublicJwk(key(alg)));
    expect(verified?.header).toEqual({ alg, kid: `kid-${alg}`, typ: 'JWT' });
    expect(verified?.payload).toEqual(claims());
    // and not with another key of the same type
    const other = await generateSigningKey(alg);
    expect(independentVerify(jwt, toPublicJwk(other))).toBeUndefined();
  });

  it('applies header overrides and removes null claims and parameters', async () => {
    const jwt = await signWebhookJwt({ key: key('ES256'), claims: { ...claims(), jti: null, extra: 1 }, header: { typ: null, kid: 'other' } });
    const decoded = decodeJwtParts(jwt);
    expect(decoded.header).toEqual({ alg: 'ES256', kid: 'other' });
    expect(decoded.payload).not.toHaveProperty('jti');
    expect(decoded.payload).toHaveProperty('extra', 1);
  });

  it('forges alg none and HS256 keyed with the public JWK text', async () => {
    const none = await signWebhookJwt({ key: key('RS256'), claims: claims(), forge: 'none' });
    expect(decodeJwtParts(none)).toMatchObject({ header: { alg: 'none', kid: 'kid-RS256' }, signature: '' });
    const hs = await signWebhookJwt({ key: key('RS256'), claims: claims(), forge: 'HS256-public' });
    const [h, p, s] = hs.split('.');
    expect(decodeJwtParts(hs).header).toMatchObject({ alg: 'HS256', kid: 'kid-RS256' });
    const expected = createHmac('sha256', JSON.stringify(toPublicJwk(key('RS256')))).update(`${h}.${p}`).digest('base64url');
    expect(s).toBe(expected);
  });
});

describe('verifyWebhookJwt (ruling 22)', () => {
  it.each(ALGS)('accepts a valid %s token', async (alg) => {
    expect(await verify(await signWebhookJwt({ key: key(alg), claims: claims() }))).toEqual({ ok: true });
  });

  it('accepts aud as a one-element array holding the URL, refuses one holding other audiences too', async () => {
    expect(await verify(await signWebhookJwt({ key: key('EdDSA'), claims: { ...claims(), aud: [URL_] } }))).toEqual({ ok: true });
    expect(await verify(await signWebhookJwt({ key: key('EdDSA'), claims: { ...claims(), aud: ['x', URL_] } }))).toMatchObject({ ok: false, reason: 'aud-mismatch' });
  });

  const brokenClaims: Array<[string, Record<string, unknown>, WebhookJwtRefusal]> = [
    ['sub missing', { sub: null }, 'claim-missing'],
    ['aud missing', { aud: null }, 'claim-missing'],
    ['exp missing', { exp: null }, 'claim-missing'],
    ['jti missing', { jti: null }, 'claim-missing'],
    ['htm missing', { htm: null }, 'claim-missing'],
    ['htb_s256 missing', { htb_s256: null }, 'claim-missing'],
    ['sub wrong', { sub: 'https://other.example.com' }, 'sub-mismatch'],
    ['aud wrong', { aud: `${BASE}/webhooks/v1/wh_2` }, 'aud-mismatch'],
    ['expired', { exp: NOW - 60 }, 'expired'],
    ['exp 11 minutes ahead', { exp: NOW + 660 }, 'exp-too-far'],
    ['jti is another event', { jti: '1b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c' }, 'jti-mismatch'],
    ['htm GET', { htm: 'GET' }, 'htm-mismatch'],
    ['htb_s256 of another body', { htb_s256: sha256Base64Url('{}') }, 'htb-mismatch'],
    ['nbf in the future', { nbf: NOW + 60 }, 'nbf-in-future'],
  ];
  it.each(brokenClaims)('refuses %s', async (_name, override, reason) => {
    const jwt = await signWebhookJwt({ key: key('ES256'), claims: { ...claims(), ...override } });
    const result = await verify(jwt);
    expect(result).toMatchObject({ ok: false, reason });
  });

  it('accepts exp at 10 minutes, and checks against the injected clock', async () => {
    const jwt = await signWebhookJwt({ key: key('EdDSA'), claims: { ...claims(), exp: NOW + 600 } });
    expect(await verify(jwt)).toEqual({ ok: true });
    expect(await verify(jwt, BODY, NOW + 700)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('refuses a changed body', async () => {
    const jwt = await signWebhookJwt({ key: key('EdDSA'), claims: claims() });
    expect(await verify(jwt, Buffer.from('{"hello":"world!"}'))).toMatchObject({ ok: false, reason: 'htb-mismatch' });
  });

  it('refuses none, HS256, missing and unknown kids, and other keys', async () => {
    expect(await verify(await signWebhookJwt({ key: key('RS256'), claims: claims(), forge: 'none' }))).toMatchObject({
      ok: false,
      reason: 'alg-not-allowed',
    });
    expect(await verify(await signWebhookJwt({ key: key('RS256'), claims: claims(), forge: 'HS256-public' }))).toMatchObject({
      ok: false,
      reason: 'alg-not-allowed',
    });
    expect(await verify(await signWebhookJwt({ key: key('RS256'), claims: claims(), header: { kid: null } }))).toMatchObject({
      ok: false,
      reason: 'kid-missing',
    });
    expect(await verify(await signWebhookJwt({ key: key('RS256'), claims: claims(), header: { kid: 'nope' } }))).toMatchObject({
      ok: false,
      reason: 'kid-unknown',
    });
    const stranger = await generateSigningKey('ES256', 'kid-ES256');
    expect(await verify(await signWebhookJwt({ key: stranger, claims: claims() }))).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a key used under another alg than its JWKS entry names', async () => {
    // An EdDSA key whose kid points at the RS256 JWKS entry.
    const jwt = await signWebhookJwt({ key: key('EdDSA'), claims: claims(), header: { kid: 'kid-RS256' } });
    expect(await verify(jwt)).toMatchObject({ ok: false, reason: 'key-alg-mismatch' });
  });
});
