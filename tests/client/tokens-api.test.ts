/**
 * Tokens (cache, refresh before expiry, refresh on 401, both grant methods), API calls, page walks, hooks
 * and the target clock, against a fixture tenant on 127.0.0.1.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTargetClient, PageWalkError } from '../../src/client/index.js';
import type { TargetClient } from '../../src/client/types.js';
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { decodeJwtParts, parseClientSecret } from '../../src/crypto/index.js';
import { makeProfile, makeSecrets, type TestSecrets } from './support/fixtures.js';
import { startTenantFixture, type TenantFixture } from './support/token-fixture.js';
import { harnessError } from '../support/harness-error.js';

let secrets: TestSecrets;
let tenant: TenantFixture;
const clients: TargetClient[] = [];

function client(extra: Parameters<typeof createTargetClient>[1] = {}): TargetClient {
  const c = createTargetClient(makeProfile(tenant.url, secrets), extra);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  secrets = await makeSecrets();
  tenant = await startTenantFixture(secrets.hooksToken);
});

afterEach(async () => {
  vi.useRealTimers();
  tenant.expiresIn = 3600;
  tenant.refuseWith = undefined;
  tenant.clockStatus = undefined;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await tenant.close();
});

describe('tokens', () => {
  it('obtains a token once and reuses it', async () => {
    const c = client();
    const before = tenant.issued.length;
    expect((await c.ownerIds('app-1')).status).toBe(200);
    expect((await c.ownerIds('app-1')).status).toBe(200);
    expect(tenant.issued.length - before).toBe(1);
    const form = tenant.tokenForms.at(-1);
    expect(form).toMatchObject({ grant_type: 'client_credentials', client_id: 'brave-otter-1@tenant.test/conformance' });
    expect(form?.client_secret).toBe(secrets.clientSecret);
    const tokenExchange = c.recorder.all()[0];
    expect(tokenExchange?.request.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('shares one token request between concurrent callers', async () => {
    const c = client();
    const before = tenant.issued.length;
    const responses = await Promise.all([c.ownerIds('a'), c.ownerIds('b'), c.ownerIds('c')]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(tenant.issued.length - before).toBe(1);
  });

  it('refreshes before expires_in runs out', async () => {
    tenant.expiresIn = 2;
    const c = client();
    const first = await c.token();
    expect(first.expiresIn).toBe(2);
    expect((await c.token()).accessToken).toBe(first.accessToken);
    // Only Date is faked (the sockets keep real timers): 1.9 s later is past the 0.2 s margin.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1_900);
    const second = await c.token();
    expect(second.accessToken).not.toBe(first.accessToken);
  });

  it('keeps a token while it is outside the margin', async () => {
    tenant.expiresIn = 100;
    const c = client();
    const first = await c.token();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 85_000); // margin = min(30, 10) = 10 s: refresh after 90 s
    expect((await c.token()).accessToken).toBe(first.accessToken);
    vi.setSystemTime(Date.now() + 6_000);
    expect((await c.token()).accessToken).not.toBe(first.accessToken);
  });

  it('on a 401 with the default token, fetches a fresh token once and retries', async () => {
    const c = client();
    const first = await c.token();
    tenant.valid.delete(first.accessToken); // the server forgot it (expired early)
    const response = await c.ownerIds('app-1');
    expect(response.status).toBe(200);
    const statuses = c.recorder.all().map((e) => e.response?.status);
    expect(statuses).toEqual([200, 401, 200, 200]); // token, call, token, call
  });

  it('does not retry a 401 for an explicit token or no token', async () => {
    const c = client();
    expect((await c.ownerIds('app-1', { token: 'made-up-token' })).status).toBe(401);
    const none = await c.ownerIds('app-1', { token: null });
    expect(none.status).toBe(401);
    expect(none.exchange.request.headers.authorization).toBeUndefined();
    const raw = await c.ownerIds('app-1', { authorization: 'Basic abc' });
    expect(raw.status).toBe(401);
    expect(c.recorder.all()).toHaveLength(3);
    expect(tenant.received.at(-1)?.headers.authorization).toBe('Basic abc');
  });

  it('builds a valid client assertion for the assertion method', async () => {
    const c = client();
    await c.token('primary', 'assertion');
    const form = tenant.tokenForms.at(-1) ?? {};
    expect(form.client_assertion_type).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    expect(form.client_secret).toBeUndefined();
    const assertion = form.client_assertion ?? '';
    const { header, payload } = decodeJwtParts(assertion);
    expect(header?.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ iss: 'brave-otter-1@tenant.test/conformance', sub: 'brave-otter-1@tenant.test/conformance', aud: 'tenant.test' });
    const now = Date.now() / 1000 + tenant.clockOffset;
    expect(Math.abs((payload?.exp as number) - (now + 120))).toBeLessThan(10);
    // A second verifier: node:crypto with the public half of the secret's key.
    const [h, p, sig] = assertion.split('.');
    const publicKey = createPublicKey({ key: parseClientSecret(secrets.clientSecret).publicJwk as JsonWebKey, format: 'jwk' });
    expect(verify(null, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(sig ?? '', 'base64url'))).toBe(true);
  });

  it('applies form overrides and the JSON body option', async () => {
    const c = client();
    await c.requestToken({ method: 'secret', form: { grant_type: 'password', client_id: null, extra: 'x' } });
    expect(tenant.tokenForms.at(-1)).toEqual({ grant_type: 'password', client_secret: secrets.clientSecret, extra: 'x' });
    const asJson = await c.requestToken({ method: 'secret', asJson: true });
    expect(asJson.exchange.request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(tenant.received.at(-1)?.body.toString() ?? '{}')).toMatchObject({ grant_type: 'client_credentials' });
  });

  it('passes assertion breakage through (exp left out)', async () => {
    const c = client();
    await c.requestToken({ method: 'assertion', assertion: { expIn: null, aud: ['tenant.test'] } });
    const { payload } = decodeJwtParts(tenant.tokenForms.at(-1)?.client_assertion ?? '');
    expect(payload?.exp).toBeUndefined();
    expect(payload?.aud).toEqual(['tenant.test']);
  });

  it('a refused token request is TOKEN_UNAVAILABLE for API calls, a plain response for requestToken', async () => {
    tenant.refuseWith = 401;
    const c = client();
    const error = await harnessError(c.ownerIds('app-1'));
    expect(error.code).toBe('TOKEN_UNAVAILABLE');
    expect(error.message).toContain('401');
    expect((await c.requestToken({ method: 'secret' })).status).toBe(401);
  });

  it('a missing credential is a USAGE error naming the field', async () => {
    const c = client();
    const error = await harnessError(c.token('expired'));
    expect(error.code).toBe('USAGE');
    expect(error.field).toBe('credentials.expired');
  });
});

describe('pagination', () => {
  it('walks every page and numbers the items', async () => {
    const c = client();
    const walk = await c.walkEntitlements('normal', { pageSize: 25 });
    expect(walk.items).toHaveLength(57);
    expect(walk.pages.map((p) => [p.page, p.itemCount])).toEqual([[1, 25], [2, 25], [3, 7]]);
    expect(walk.pages.at(-1)?.nextPageToken).toBe('');
    expect(walk.items[25]).toEqual({ item: { appEntitlement: { id: 'ent-025' } }, page: 2 });
    const urls = c.recorder.all().filter((e) => e.request.url.includes('entitlements')).map((e) => new URL(e.request.url).search);
    expect(urls).toEqual(['?page_size=25', '?page_size=25&page_token=off-25', '?page_size=25&page_token=off-50']);
  });

  it('iterates items as an async iterator', async () => {
    const c = client();
    const pages: number[] = [];
    for await (const { page } of c.entitlements('normal', { pageSize: 50 })) pages.push(page);
    expect(pages).toHaveLength(57);
    expect(pages.at(-1)).toBe(2);
  });

  it('sends page_size and page_token exactly as given', async () => {
    const c = client();
    await c.entitlementsPage('normal');
    await c.entitlementsPage('normal', { pageToken: '' });
    await c.entitlementsPage('normal', { pageSize: '-5', pageToken: 'a b&c' });
    await c.walkEntitlements('normal', { emptyFirstToken: true, maxPages: 5 });
    const searches = tenant.received.slice(-6).map((r) => new URL(r.url, 'http://x').search);
    expect(searches.slice(0, 4)).toEqual(['', '?page_token=', '?page_size=-5&page_token=a%20b%26c', '?page_token=']);
  });

  it('detects a loop when the same token comes back', async () => {
    const c = client();
    const error = await harnessError(c.walkEntitlements('loop'));
    expect(error.code).toBe('PAGE_LOOP');
    expect(error).toBeInstanceOf(PageWalkError);
    expect((error as PageWalkError).partial.pages).toHaveLength(2);
  });

  it('detects a loop over two tokens', async () => {
    const c = client();
    const error = await harnessError(c.walkEntitlements('loop-later'));
    expect(error.code).toBe('PAGE_LOOP');
    expect((error as PageWalkError).partial.pages.map((p) => p.nextPageToken)).toEqual(['a', 'b', 'a']);
  });

  it('stops at maxPages with PAGE_LIMIT', async () => {
    const c = client();
    const error = await harnessError(c.walkEntitlements('endless', { maxPages: 4 }));
    expect(error.code).toBe('PAGE_LIMIT');
    expect((error as PageWalkError).partial.pages).toHaveLength(4);
  });

  it('a non-string nextPageToken or a non-200 ends the walk, visible in pages', async () => {
    const c = client();
    const nullToken = await c.walkEntitlements('null-token');
    expect(nullToken.pages).toHaveLength(1);
    expect(nullToken.pages[0]?.nextPageToken).toBeNull();
    const failing = await c.walkEntitlements('fails-page-2');
    expect(failing.pages.map((p) => p.status)).toEqual([200, 500]);
    expect(failing.items).toHaveLength(25);
  });
});

describe('hooks and the target clock', () => {
  it('uses the target clock for webhook timestamps and re-reads it after advance()', async () => {
    tenant.clockOffset = 1000;
    const c = client();
    expect(await c.hooks?.probe()).toEqual({ clock: true, runs: true });
    const sent = await c.sendWebhook('hmac');
    const ts = Number(sent.exchange.request.headers['webhook-timestamp']);
    expect(Math.abs(ts - (Date.now() / 1000 + 1000))).toBeLessThan(5);
    const after = await c.hooks?.advance(3600);
    expect(Math.abs((after ?? 0) - (Date.now() / 1000 + 4600))).toBeLessThan(5);
    const again = await c.sendWebhook('hmac');
    expect(Math.abs(Number(again.exchange.request.headers['webhook-timestamp']) - (Date.now() / 1000 + 4600))).toBeLessThan(5);
    expect((await c.hooks?.runs('wh_hmac'))?.[0]?.eventId).toBe('e-1');
    tenant.clockOffset = 0;
  });

  it('a POST /clock that is not 200 is HOOK_BROKEN', async () => {
    tenant.clockStatus = 500;
    const c = client();
    const error = await harnessError(c.hooks?.advance(10) ?? Promise.resolve());
    expect(error.code).toBe('HOOK_BROKEN');
  });

  it('falls back to local time when the clock hook does not answer', async () => {
    const c = createTargetClient(makeProfile(tenant.url, { ...secrets, hooksToken: 'wrong-token' }));
    clients.push(c);
    const now = await c.now();
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(5);
    expect(await c.hooks?.probe()).toEqual({ clock: false, runs: false });
  });

  it('without hooks in the profile there is no hooks object and local time is used', async () => {
    const c = createTargetClient(makeProfile(tenant.url, secrets, { hooks: undefined }));
    clients.push(c);
    expect(c.hooks).toBeUndefined();
    expect(Math.abs((await c.now()) - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('rate limit', () => {
  it('paces requests to the configured rate', async () => {
    const c = client({ rateLimit: 20 });
    const before = tenant.received.length;
    await Promise.all(Array.from({ length: 30 }, () => c.request({ method: 'GET', url: '/nothing' })));
    const times = tenant.received.slice(before).map((_r, i) => i);
    expect(times).toHaveLength(30);
    // 20 burst then 10 at 20/s: the last start is at least ~0.5 s after the first (a correctness bound).
    const exchanges = c.recorder.all();
    const span = (exchanges.at(-1)?.startedAt ?? 0) - (exchanges[0]?.startedAt ?? 0);
    expect(span).toBeGreaterThanOrEqual(400);
  });
});
