/**
 * The attack helpers of src/crypto (signature tampering, repeated members, self-signed attacker keys) do
 * what their names say, checked with node:crypto directly; and the verifiers refuse each attack for the
 * reason the docs give.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  P256_ORDER,
  buildClientAssertion,
  buildWebhookClaims,
  createSelfSignedSigningKey,
  decodeJwtParts,
  duplicateClaims,
  generateClientSecret,
  generateSigningKey,
  hasDuplicateMember,
  jwsHasDuplicateMember,
  p1363ToDer,
  signWebhookJwt,
  spliceSignature,
  tamperSignature,
  toPublicJwk,
  verifyClientAssertion,
  verifyWebhookJwt,
  type JWK,
  type SigningJwk,
} from '../../src/crypto/index.js';
import { independentVerify } from './independent-verify.js';

const BASE = 'https://acme.example.com';
const URL_ = `${BASE}/api/v1/webhooks/incoming/wh_1`;
const EVENT = '0b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c';
const BODY = Buffer.from('{"hello":"world"}');
const NOW = 1_700_000_000;

let es: SigningJwk;
let ed: SigningJwk;
beforeAll(async () => {
  [es, ed] = await Promise.all([generateSigningKey('ES256', 'kid-es'), generateSigningKey('EdDSA', 'kid-ed')]);
});

const claims = (eventId = EVENT): Record<string, unknown> => buildWebhookClaims({ baseUrl: BASE, webhookUrl: URL_, eventId, body: BODY, now: NOW });
const lookup = async (kid: string): Promise<JWK | undefined> => [es, ed].map(toPublicJwk).find((key) => key.kid === kid);
const verifyWh = (jwt: string) => verifyWebhookJwt(jwt, lookup, { baseUrl: BASE, webhookUrl: URL_, eventId: EVENT, body: BODY, now: NOW });
const signatureOf = (jwt: string): Buffer => Buffer.from(jwt.split('.')[2]!, 'base64url');

describe('signature tampering', () => {
  it('zeroes, replaces by n, DER-encodes, extends and truncates an ES256 signature', async () => {
    const jwt = await signWebhookJwt({ key: es, claims: claims() });
    const original = signatureOf(jwt);
    expect(signatureOf(tamperSignature(jwt, 'zero'))).toEqual(Buffer.alloc(64));
    const rZero = signatureOf(tamperSignature(jwt, 'r-zero'));
    expect(rZero.subarray(0, 32)).toEqual(Buffer.alloc(32));
    expect(rZero.subarray(32)).toEqual(original.subarray(32));
    expect(signatureOf(tamperSignature(jwt, 's-zero')).subarray(32)).toEqual(Buffer.alloc(32));
    const order = BigInt(`0x${signatureOf(tamperSignature(jwt, 'r-order')).subarray(0, 32).toString('hex')}`);
    expect(order).toBe(P256_ORDER);
    expect(signatureOf(tamperSignature(jwt, 'append'))).toEqual(Buffer.concat([original, Buffer.from([0])]));
    expect(signatureOf(tamperSignature(jwt, 'truncate'))).toEqual(original.subarray(0, 63));
    expect(jwt.split('.').slice(0, 2)).toEqual(tamperSignature(jwt, 'zero').split('.').slice(0, 2));
  });

  it('p1363ToDer produces a DER signature node:crypto verifies with dsaEncoding der', async () => {
    const jwt = await signWebhookJwt({ key: es, claims: claims() });
    const der = p1363ToDer(signatureOf(jwt));
    expect(der[0]).toBe(0x30);
    expect(der.length).toBeGreaterThanOrEqual(8);
    const key = createPublicKey({ key: toPublicJwk(es) as JsonWebKey, format: 'jwk' });
    const input = Buffer.from(jwt.split('.').slice(0, 2).join('.'));
    expect(verify('sha256', input, { key, dsaEncoding: 'der' }, der)).toBe(true);
    expect(signatureOf(tamperSignature(jwt, 'der'))).toEqual(der);
  });

  it('encodes leading-zero and high-bit halves as minimal positive DER integers', () => {
    const half = (first: number): Buffer => Buffer.concat([Buffer.from([first]), Buffer.alloc(31, 1)]);
    const der = p1363ToDer(Buffer.concat([half(0x00), half(0x80)]));
    // r: leading 0x00 dropped (31 bytes); s: 0x00 prepended (33 bytes).
    expect([der[2], der[3]]).toEqual([0x02, 31]);
    expect([der[2 + 2 + 31], der[2 + 2 + 31 + 1], der[2 + 2 + 31 + 2]]).toEqual([0x02, 33, 0x00]);
    expect(der[1]).toBe(der.length - 2);
  });

  it('refuses ECDSA-only tampers on a signature that is not 64 bytes', async () => {
    const jwt = await signWebhookJwt({ key: ed, claims: claims() });
    expect(() => tamperSignature(`${jwt}AA`, 'der')).toThrow(RangeError);
  });

  it('spliceSignature keeps the recipient\'s message and the donor\'s signature', async () => {
    const donor = await signWebhookJwt({ key: ed, claims: claims() });
    const recipient = await signWebhookJwt({ key: ed, claims: claims('1b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c') });
    const spliced = spliceSignature(recipient, donor);
    expect(decodeJwtParts(spliced).payload?.jti).toBe('1b9d2c7e-5f7a-4c1e-9a3b-2d4e6f8a0b1c');
    expect(spliced.split('.')[2]).toBe(donor.split('.')[2]);
    expect(independentVerify(spliced, toPublicJwk(ed))).toBeUndefined();
  });
});

describe('repeated members', () => {
  it('duplicateClaims writes the named claim twice in the order asked, signed as is', async () => {
    const text = duplicateClaims({ a: 1, aud: 'right', b: 2 }, { aud: 'wrong' }, 'wrong-last');
    expect(text).toBe('{"a":1,"aud":"right","aud":"wrong","b":2}');
    expect(duplicateClaims({ aud: 'right' }, { aud: 'wrong' }, 'wrong-first')).toBe('{"aud":"wrong","aud":"right"}');
    const jwt = await signWebhookJwt({ key: ed, claims: claims(), serialize: (c) => duplicateClaims(c, { aud: 'x' }, 'wrong-first') });
    expect(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')).toContain('"aud":"x","aud":');
    expect(independentVerify(jwt, toPublicJwk(ed))).toBeDefined();
  });

  it('hasDuplicateMember finds repeats per object, after unescaping, not across objects or in values', () => {
    expect(hasDuplicateMember('{"a":1,"a":2}')).toBe(true);
    expect(hasDuplicateMember('{"aud":1,"a\\u0075d":2}')).toBe(true);
    expect(hasDuplicateMember('{"x":{"a":1,"a":2}}')).toBe(true);
    expect(hasDuplicateMember('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBe(false);
    expect(hasDuplicateMember('{"a":"a","b":"a,\\"a\\":1"}')).toBe(false);
    expect(hasDuplicateMember('{"a":1,"b":2}')).toBe(false);
    expect(hasDuplicateMember('not json {"a')).toBe(false);
  });

  it('jwsHasDuplicateMember looks at the header and the payload', async () => {
    const plain = await signWebhookJwt({ key: ed, claims: claims() });
    expect(jwsHasDuplicateMember(plain)).toBe(false);
    const [, payload, signature] = plain.split('.');
    const header = Buffer.from('{"alg":"EdDSA","kid":"kid-ed","kid":"other"}').toString('base64url');
    expect(jwsHasDuplicateMember(`${header}.${payload}.${signature}`)).toBe(true);
  });
});

describe('the verifiers refuse each attack', () => {
  it('webhook JWTs: repeated claims, multi-audience, crit, tampered and spliced signatures, string dates', async () => {
    const refused = async (input: Parameters<typeof signWebhookJwt>[0]): Promise<string | undefined> => {
      const verdict = await verifyWh(await signWebhookJwt(input));
      return verdict.ok ? undefined : verdict.reason;
    };
    expect(await refused({ key: ed, claims: claims(), serialize: (c) => duplicateClaims(c, { aud: 'x' }, 'wrong-first') })).toBe('duplicate-member');
    expect(await refused({ key: ed, claims: { ...claims(), aud: [URL_, `${URL_}x`] } })).toBe('aud-mismatch');
    expect(await refused({ key: ed, claims: claims(), header: { crit: ['x-unknown'], 'x-unknown': 1 } })).toBeDefined();
    for (const tamper of ['zero', 'r-zero', 's-zero', 'r-order', 's-order', 'der', 'append', 'truncate'] as const) {
      expect(await refused({ key: es, claims: claims(), tamper }), tamper).toBe('bad-signature');
    }
    expect(await refused({ key: ed, claims: claims(), tamper: 'append' })).toBe('bad-signature');
    expect(await refused({ key: ed, claims: { ...claims(), exp: String(NOW + 300) } })).toBe('exp-invalid');
    expect(await refused({ key: ed, claims: { ...claims(), nbf: String(NOW) } })).toBe('claim-invalid');
    expect(await refused({ key: ed, claims: { ...claims(), exp: 1e300 } })).toBe('exp-too-far');
    expect(await refused({ key: ed, claims: claims(), header: { kid: 'kid-ed', jwk: toPublicJwk(ed) } })).toBeUndefined();
  });

  it('client assertions: an embedded jwk or certified x5c key, HS256 with the empty key, repeated claims', async () => {
    const { secret, publicJwk } = await generateClientSecret('svc.example');
    const clientId = 'otter@acme.example.com/conformance';
    const base = { clientId, clientSecret: secret, audience: 'acme.example.com', now: NOW };
    const expectation = { clientId, publicJwk, tenantDomain: 'acme.example.com', now: NOW };
    const attacker = await generateSigningKey('EdDSA');
    const certified = await createSelfSignedSigningKey('attacker.example');
    const variants = [
      await buildClientAssertion({ ...base, key: attacker, header: { jwk: toPublicJwk(attacker) } }),
      await buildClientAssertion({ ...base, key: certified.privateJwk, header: { alg: 'ES256', x5c: certified.x5c } }),
      await buildClientAssertion({ ...base, header: { kid: '/dev/null' }, hs256Key: new Uint8Array(0) }),
      await buildClientAssertion({ ...base, serialize: (c) => duplicateClaims(c, { iss: 'someone-else' }, 'wrong-first') }),
    ];
    const reasons = await Promise.all(variants.map(async (jwt) => {
      const verdict = await verifyClientAssertion(jwt, expectation);
      return verdict.ok ? 'accepted' : verdict.reason;
    }));
    expect(reasons).toEqual(['bad-signature', 'alg-not-allowed', 'alg-not-allowed', 'duplicate-member']);
    expect(await verifyClientAssertion(await buildClientAssertion(base), expectation)).toEqual({ ok: true });
  });

  it('the self-signed attacker key signs what its x5c certificate certifies', async () => {
    const certified = await createSelfSignedSigningKey('attacker.example');
    expect(certified.x5c).toHaveLength(1);
    expect(certified.privateJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    const jwt = await signWebhookJwt({ key: certified.privateJwk as unknown as SigningJwk, claims: claims() });
    expect(independentVerify(jwt, toPublicJwk(certified.privateJwk as unknown as JWK))).toBeDefined();
  });
});
