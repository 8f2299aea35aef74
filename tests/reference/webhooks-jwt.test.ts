/** Inbound webhooks with JWT (service.md §5.4 JWT; ruling 22), the JWKS served over node:https. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { call, publicJwk, sha256Url, signJwt, uuid, type Jwk, type WireResponse } from './support/wire.js';

let t: TestSandbox;
const logs: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox({ serveJwks: true, logger: (line) => logs.push(line) });
});
afterAll(async () => t?.close());

interface JwtCase {
  listenerId?: string;
  body?: string;
  eventId?: string;
  key?: Jwk;
  header?: Record<string, unknown>;
  /** Replaces claims; undefined removes one. */
  claims?: Record<string, unknown>;
  authorization?: string | null;
  hsKey?: Buffer;
}

const keyFor = (alg: string): Jwk => t.profile.webhooks.jwt.signingKeys.find((k) => k.alg === alg) as Jwk;

async function send(c: JwtCase = {}): Promise<WireResponse> {
  const listenerId = c.listenerId ?? t.profile.webhooks.jwt.listenerId;
  const url = `${t.baseUrl}/api/v1/webhooks/incoming/${listenerId}`;
  const body = c.body ?? JSON.stringify({ via: 'jwt' });
  const eventId = c.eventId ?? uuid();
  const now = Math.floor(await t.clock());
  const key = c.key ?? keyFor('EdDSA');
  const claims: Record<string, unknown> = {
    sub: t.baseUrl,
    aud: url,
    iat: now,
    exp: now + 300,
    jti: eventId,
    htm: 'POST',
    htb_s256: sha256Url(body),
    ...c.claims,
  };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  const header = { alg: key.alg, kid: key.kid, typ: 'JWT', ...c.header };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete (header as Record<string, unknown>)[name];
  const jwt = signJwt(header, claims, key, c.hsKey);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-timestamp': String(now),
    'webhook-event-id': eventId,
  };
  if (c.authorization !== null) headers.authorization = c.authorization ?? `Bearer ${jwt}`;
  return call(url, { method: 'POST', headers, body });
}

describe('accepted', () => {
  it('accepts RS256, ES256 and EdDSA with a kid from the JWKS, and runs the automation', async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA']) {
      const eventId = uuid();
      const response = await send({ key: keyFor(alg), eventId, body: JSON.stringify({ alg }) });
      expect({ alg, status: response.status }).toEqual({ alg, status: 200 });
      const runs = (await t.runs(t.profile.webhooks.jwt.listenerId)).filter((r) => r.eventId === eventId);
      expect(runs.map((r) => r.context)).toEqual([{ alg }]);
    }
  });
  it('caches the JWKS instead of fetching it per request', async () => {
    const before = t.jwks?.hits() ?? 0;
    for (let i = 0; i < 5; i += 1) expect((await send()).status).toBe(200);
    expect((t.jwks?.hits() ?? 0) - before).toBe(0);
  });
});

describe('401 (ruling 22)', () => {
  it('refuses a missing or malformed Authorization header', async () => {
    expect((await send({ authorization: null })).status).toBe(401);
    expect((await send({ authorization: 'Basic abc' })).status).toBe(401);
    expect((await send({ authorization: 'Bearer not.a.jwt' })).status).toBe(401);
  });
  it('refuses an unknown or missing kid, alg none, HS256, another key, and a kid bound to another alg', async () => {
    const other = newEd25519Jwk() as Jwk;
    const ed = keyFor('EdDSA');
    const cases: Array<[string, JwtCase]> = [
      ['unknown kid', { header: { kid: 'no-such-kid' } }],
      ['no kid', { header: { kid: undefined } }],
      ['alg none', { header: { alg: 'none' } }],
      ['HS256 with the public JWK', { header: { alg: 'HS256' }, hsKey: Buffer.from(JSON.stringify(publicJwk(ed))) }],
      ['HS256 with the x value', { header: { alg: 'HS256' }, hsKey: Buffer.from(String(ed.x)) }],
      ['another key', { key: { ...other, alg: 'EdDSA', kid: ed.kid } }],
      ['ES256 kid, EdDSA signature', { header: { kid: keyFor('ES256').kid } }],
    ];
    for (const [label, c] of cases) {
      const response = await send(c);
      expect({ label, status: response.status }).toEqual({ label, status: 401 });
    }
  });
  it('refuses each required claim missing or wrong', async () => {
    const now = Math.floor(await t.clock());
    const other = t.profile.webhooks.hmac.listenerId;
    const cases: Array<[string, Record<string, unknown>]> = [
      ...['sub', 'aud', 'exp', 'jti', 'htm', 'htb_s256'].map((name): [string, Record<string, unknown>] => [`no ${name}`, { [name]: undefined }]),
      ['sub other', { sub: 'https://other.example.com' }],
      ['sub with slash', { sub: `${t.baseUrl}/` }],
      ['aud other listener', { aud: `${t.baseUrl}/api/v1/webhooks/incoming/${other}` }],
      ['aud base URL', { aud: t.baseUrl }],
      ['exp expired', { exp: now - 60 }],
      ['exp 11 minutes ahead', { exp: now + 660 }],
      ['exp not a number', { exp: 'soon' }],
      ['jti other', { jti: uuid() }],
      ['htm GET', { htm: 'GET' }],
      ['htb other body', { htb_s256: sha256Url('{}') }],
      ['htb padded', { htb_s256: `${sha256Url(JSON.stringify({ via: 'jwt' }))}=` }],
    ];
    for (const [label, claims] of cases) {
      const response = await send({ claims });
      expect({ label, status: response.status }).toEqual({ label, status: 401 });
    }
  });
  it('refuses everything on a listener whose JWKS is unreachable', async () => {
    const key = t.profile.webhooks.jwtUnreachableJwks.signingKeys[0] as Jwk;
    const listenerId = t.profile.webhooks.jwtUnreachableJwks.listenerId;
    const url = `${t.baseUrl}/api/v1/webhooks/incoming/${listenerId}`;
    const response = await send({ listenerId, key, claims: { aud: url } });
    expect(response.status).toBe(401);
    // The failure is remembered for a few seconds: more webhooks are refused without a new fetch, and
    // without a new log line each.
    for (let i = 0; i < 5; i += 1) expect((await send({ listenerId, key, claims: { aud: url } })).status).toBe(401);
    expect(logs.filter((line) => line.includes(`JWKS of listener ${listenerId}`))).toHaveLength(1);
  });
});

describe('order and idempotency', () => {
  it('answers 409 to a duplicate, 401 to a duplicate with a bad token, and never consumes on a bad token', async () => {
    const eventId = uuid();
    expect((await send({ eventId, claims: { htm: 'PUT' } })).status).toBe(401);
    expect((await send({ eventId })).status).toBe(200);
    expect((await send({ eventId })).status).toBe(409);
    expect((await send({ eventId, header: { kid: 'nope' } })).status).toBe(401);
  });
  it('still applies the 400 checks on JWT listeners', async () => {
    expect((await send({ eventId: 'not-a-uuid', claims: { jti: 'not-a-uuid' } })).status).toBe(400);
    expect((await send({ body: '{oops' })).status).toBe(400);
  });
});
