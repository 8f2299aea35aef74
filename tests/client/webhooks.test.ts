/**
 * The webhook builder: a valid request by default (HMAC checked with node:crypto, JWT decoded and its
 * signature checked with node:crypto), and each override changes only its own part.
 */
import { createHash, createHmac, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import type { HttpResponse, TargetClient, WebhookOptions } from '../../src/client/types.js';
import { generateSigningKey, toPublicJwk } from '../../src/crypto/index.js';
import type { SigningJwk } from '../../src/profile/types.js';
import { json, makeProfile, makeSecrets, startFixture, type Fixture, type Received, type TestSecrets } from './support/fixtures.js';

let secrets: TestSecrets;
let fixture: Fixture;
let client: TargetClient;

beforeAll(async () => {
  secrets = await makeSecrets();
  fixture = await startFixture((_req, res) => json(res, 200, {}));
  client = createTargetClient(makeProfile(fixture.url, secrets, { hooks: undefined, webhookBaseUrl: 'https://public.tenant.test' }), { seed: 'fixed' });
});

afterAll(async () => {
  await client.close();
  await fixture.close();
});

const FIXED = { eventId: '8b0f7f36-3a57-4e0e-9a57-3c1d1c2f3e4a', timestamp: '1900000000', body: { hello: 'world' } } as const;

async function send(key: 'hmac' | 'jwt', options: WebhookOptions = {}): Promise<Received> {
  const response: HttpResponse = await client.sendWebhook(key, options);
  expect(response.status).toBe(200);
  const received = fixture.received.at(-1);
  if (!received) throw new Error('nothing received');
  return received;
}

function hmac(secret: string | Buffer, input: string | Buffer): string {
  return createHmac('sha256', typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret).update(input).digest('base64url');
}

/** Header names and values that differ between two requests (lower-case names). */
function headerDiff(a: Received, b: Received): string[] {
  const names = new Set([...Object.keys(a.headers), ...Object.keys(b.headers)]);
  return [...names].filter((name) => a.headers[name] !== b.headers[name]).sort();
}

function decode(jwt: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string } {
  const [h, p, s] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(h ?? '', 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>,
    signature: s ?? '',
  };
}

function verifyJwt(jwt: string, key: SigningJwk): boolean {
  const [h, p, s] = jwt.split('.');
  const publicKey = createPublicKey({ key: toPublicJwk(key) as JsonWebKey, format: 'jwk' });
  const data = Buffer.from(`${h}.${p}`);
  const signature = Buffer.from(s ?? '', 'base64url');
  if (key.alg === 'EdDSA') return verify(null, data, publicKey, signature);
  if (key.alg === 'ES256') return verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  return verify('sha256', data, publicKey, signature);
}

function bearer(received: Received): string {
  return String(received.headers.authorization ?? '').replace(/^Bearer /, '');
}

describe('HMAC webhooks', () => {
  it('are valid by default', async () => {
    const now = Date.now() / 1000;
    const r = await send('hmac');
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/api/v1/webhooks/incoming/wh_hmac');
    expect(r.headers['content-type']).toBe('application/json');
    const eventId = String(r.headers['webhook-event-id']);
    expect(eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const timestamp = String(r.headers['webhook-timestamp']);
    expect(timestamp).toMatch(/^\d+$/);
    expect(Math.abs(Number(timestamp) - now)).toBeLessThan(5);
    expect(() => JSON.parse(r.body.toString())).not.toThrow();
    expect(r.headers['webhook-signature']).toBe(hmac(secrets.hmacSecret, Buffer.concat([Buffer.from(`${timestamp}.${eventId}.`), r.body])));
    expect(r.headers.authorization).toBeUndefined();
  });

  it('fresh event IDs and seeded bodies differ per request', async () => {
    const a = await send('hmac');
    const b = await send('hmac');
    expect(a.headers['webhook-event-id']).not.toBe(b.headers['webhook-event-id']);
    expect(a.body.equals(b.body)).toBe(false);
  });

  const base = async (extra: WebhookOptions = {}): Promise<Received> => send('hmac', { ...FIXED, ...extra });

  it('eventId, timestamp, body and timestampOffset set exactly their parts (and the signature follows)', async () => {
    const a = await base();
    expect(a.headers['webhook-event-id']).toBe(FIXED.eventId);
    expect(a.headers['webhook-timestamp']).toBe(FIXED.timestamp);
    expect(a.body.toString()).toBe('{"hello":"world"}');
    const b = await base({ eventId: '00000000-0000-0000-0000-000000000000' });
    expect(headerDiff(a, b)).toEqual(['webhook-event-id', 'webhook-signature']);
    const raw = await base({ body: 'not json' });
    expect(raw.body.toString()).toBe('not json');
    expect(headerDiff(a, raw)).toEqual(['content-length', 'webhook-signature']);
    const offset = await send('hmac', { eventId: FIXED.eventId, body: FIXED.body, timestampOffset: -270 });
    expect(Math.abs(Number(offset.headers['webhook-timestamp']) - (Date.now() / 1000 - 270))).toBeLessThan(5);
    const ms = await base({ timestamp: 1900000000000 });
    expect(ms.headers['webhook-timestamp']).toBe('1900000000000');
  });

  it('bodyBytes pads to exactly N bytes of valid JSON', async () => {
    for (const size of [65_536, 65_537, 200, 14, 5, 2]) {
      const r = await send('hmac', { bodyBytes: size });
      expect(r.body.length).toBe(size);
      expect(() => JSON.parse(r.body.toString())).not.toThrow();
    }
    const withObject = await send('hmac', { body: { a: 1 }, bodyBytes: 100 });
    expect(withObject.body.length).toBe(100);
    expect(JSON.parse(withObject.body.toString())).toMatchObject({ a: 1 });
  });

  it('contentType, omitHeaders and headers change only their header', async () => {
    const a = await base();
    expect(headerDiff(a, await base({ contentType: null }))).toEqual(['content-type']);
    const charset = await base({ contentType: 'application/json; charset=utf-8' });
    expect(charset.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headerDiff(a, charset)).toEqual(['content-type']);
    expect(headerDiff(a, await base({ omitHeaders: ['Webhook-Signature'] }))).toEqual(['webhook-signature']);
    expect(headerDiff(a, await base({ omitHeaders: ['webhook-timestamp'] }))).toEqual(['webhook-timestamp']);
    const replaced = await base({ headers: { 'Webhook-Event-Id': 'not-a-uuid' } });
    expect(headerDiff(a, replaced)).toEqual(['webhook-event-id']);
    expect(replaced.headers['webhook-event-id']).toBe('not-a-uuid');
  });

  it('each HMAC option changes only the signature, as computed independently', async () => {
    const a = await base();
    const input = `${FIXED.timestamp}.${FIXED.eventId}.{"hello":"world"}`;
    expect(a.headers['webhook-signature']).toBe(hmac(secrets.hmacSecret, input));
    const cases: Array<[WebhookOptions['hmac'], string]> = [
      [{ decodedKey: true }, hmac(Buffer.from(secrets.hmacSecret, 'base64url'), input)],
      [{ order: ['eventId', 'timestamp', 'body'] }, hmac(secrets.hmacSecret, `${FIXED.eventId}.${FIXED.timestamp}.{"hello":"world"}`)],
      [{ signedBody: '{"hello":"mars"}' }, hmac(secrets.hmacSecret, `${FIXED.timestamp}.${FIXED.eventId}.{"hello":"mars"}`)],
      [{ signedTimestamp: '1' }, hmac(secrets.hmacSecret, `1.${FIXED.eventId}.{"hello":"world"}`)],
      [{ secret: 'another-secret-value' }, hmac('another-secret-value', input)],
      [{ padded: true }, `${hmac(secrets.hmacSecret, input)}=`],
      [{ standardBase64: true }, createHmac('sha256', secrets.hmacSecret).update(input).digest('base64').replace(/=+$/, '')],
      [{ signature: 'verbatim' }, 'verbatim'],
    ];
    for (const [options, expected] of cases) {
      const r = await base({ hmac: options });
      expect(r.headers['webhook-signature'], JSON.stringify(options)).toBe(expected);
      // A standard-alphabet signature equals the base64url one when it holds no -/_ (about 1 run in 4).
      const changed = expected !== a.headers['webhook-signature'];
      expect(headerDiff(a, r), JSON.stringify(options)).toEqual(changed ? ['webhook-signature'] : []);
      expect(r.body.equals(a.body)).toBe(true);
    }
  });

  it('sendWebhookTo reaches any listener with explicit auth, or none', async () => {
    const r = await client.sendWebhookTo('unknown/listener', { hmacSecret: secrets.hmacSecret }, FIXED);
    expect(r.status).toBe(200);
    expect(fixture.received.at(-1)?.url).toBe('/api/v1/webhooks/incoming/unknown%2Flistener');
    await client.sendWebhookTo('x', { none: true }, FIXED);
    const none = fixture.received.at(-1);
    expect(none?.headers['webhook-signature']).toBeUndefined();
    expect(none?.headers.authorization).toBeUndefined();
    expect(none?.headers['webhook-event-id']).toBe(FIXED.eventId);
  });
});

describe('JWT webhooks', () => {
  const jwtBase = async (jwt: WebhookOptions['jwt'] = {}): Promise<Received> => send('jwt', { ...FIXED, jwt });

  it('carry every §5.4 claim and verify with the listener key', async () => {
    const now = Date.now() / 1000;
    const r = await send('jwt', { body: FIXED.body });
    const token = bearer(r);
    const { header, payload } = decode(token);
    const key = secrets.jwtKeys[0] as SigningJwk;
    expect(header).toMatchObject({ alg: key.alg, kid: key.kid });
    expect(payload.sub).toBe(fixture.url);
    expect(payload.aud).toBe('https://public.tenant.test/api/v1/webhooks/incoming/wh_jwt');
    expect(payload.jti).toBe(r.headers['webhook-event-id']);
    expect(payload.htm).toBe('POST');
    expect(payload.htb_s256).toBe(createHash('sha256').update(r.body).digest('base64url'));
    expect(Math.abs((payload.exp as number) - (now + 300))).toBeLessThan(5);
    expect(verifyJwt(token, key)).toBe(true);
    expect(r.headers['webhook-signature']).toBeUndefined();
  });

  it('alg and kid choose the key', async () => {
    for (const alg of ['ES256', 'RS256', 'EdDSA'] as const) {
      const token = bearer(await jwtBase({ alg }));
      const key = secrets.jwtKeys.find((k) => k.alg === alg) as SigningJwk;
      expect(decode(token).header).toMatchObject({ alg, kid: key.kid });
      expect(verifyJwt(token, key)).toBe(true);
    }
    const byKid = bearer(await jwtBase({ kid: 'rs-1' }));
    expect(decode(byKid).header.alg).toBe('RS256');
  });

  it('claims overrides replace or remove exactly one claim', async () => {
    const reference = decode(bearer(await jwtBase())).payload;
    for (const name of ['sub', 'aud', 'exp', 'jti', 'htm', 'htb_s256']) {
      const removed = decode(bearer(await jwtBase({ claims: { [name]: null } }))).payload;
      expect(removed[name], name).toBeUndefined();
      const { [name]: _gone, ...rest } = reference;
      const { [name]: _also, ...restRemoved } = removed;
      expect({ ...restRemoved, iat: 0, exp: 0 }, name).toEqual({ ...rest, iat: 0, exp: 0 });
    }
    const replaced = decode(bearer(await jwtBase({ claims: { htm: 'GET' } }))).payload;
    expect(replaced.htm).toBe('GET');
    expect(replaced.jti).toBe(FIXED.eventId);
  });

  it('expIn, header, forge, key and authorization each break one thing', async () => {
    const expIn = decode(bearer(await jwtBase({ expIn: 660 }))).payload;
    expect((expIn.exp as number) - (expIn.iat as number)).toBe(660);
    const kid = decode(bearer(await jwtBase({ header: { kid: 'unknown-kid' } })));
    expect(kid.header.kid).toBe('unknown-kid');
    const noKid = decode(bearer(await jwtBase({ header: { kid: null } })));
    expect(noKid.header.kid).toBeUndefined();
    const none = decode(bearer(await jwtBase({ forge: 'none' })));
    expect(none.header.alg).toBe('none');
    expect(none.signature).toBe('');
    const hs = decode(bearer(await jwtBase({ forge: 'HS256-public' })));
    expect(hs.header.alg).toBe('HS256');
    const other = await generateSigningKey('EdDSA', 'ed-1');
    const wrongKey = bearer(await jwtBase({ key: other }));
    expect(verifyJwt(wrongKey, secrets.jwtKeys[0] as SigningJwk)).toBe(false);
    expect(verifyJwt(wrongKey, other)).toBe(true);
    const verbatim = await jwtBase({ authorization: 'Token abc' });
    expect(verbatim.headers.authorization).toBe('Token abc');
  });

  it('an unknown alg for the listener is a USAGE error', async () => {
    const c = createTargetClient(makeProfile(fixture.url, { ...secrets, jwtKeys: secrets.jwtKeys.filter((k) => k.alg === 'EdDSA') }, { hooks: undefined }));
    await expect(c.sendWebhook('jwt', { jwt: { alg: 'RS256' } })).rejects.toMatchObject({ code: 'USAGE' });
    await expect(c.sendWebhook('inactive')).rejects.toMatchObject({ code: 'USAGE', field: 'webhooks.inactive' });
    await c.close();
  });
});
