/**
 * The list and search operations beside the app entitlements (service.md §1, §4.4, §5.1; rulings 9–12,
 * 32–34): the app list (query), the app and entitlement searches (JSON body, both spellings), tokens bound
 * to their listing, bearer authentication on each, and the reference's own OpenAPI 3.1 description.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { call, type WireResponse } from './support/wire.js';

let t: TestSandbox;
let token: string;

beforeAll(async () => {
  t = await startTestSandbox({ tokenTtlSeconds: 600 });
  token = await t.token();
});
afterAll(async () => t?.close());

const APPS = 120;
const ENTITLEMENTS = 292;

const listApps = (query = '', auth: string | null = `Bearer ${token}`): Promise<WireResponse> =>
  call(`${t.baseUrl}/api/v1/apps${query}`, { headers: auth === null ? {} : { authorization: auth } });
const search = (what: 'apps' | 'entitlements', body: unknown, auth: string | null = `Bearer ${token}`): Promise<WireResponse> =>
  call(`${t.baseUrl}/api/v1/search/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth === null ? {} : { authorization: auth }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

type Fetch = (pageToken: string | undefined) => Promise<WireResponse>;

async function walk(fetchPage: Fetch): Promise<{ items: unknown[]; sizes: number[] }> {
  const items: unknown[] = [];
  const sizes: number[] = [];
  let pageToken: string | undefined;
  for (let i = 0; i < 60; i += 1) {
    const response = await fetchPage(pageToken);
    expect(response.status).toBe(200);
    expect(typeof response.json.nextPageToken).toBe('string');
    items.push(...response.json.list);
    sizes.push(response.json.list.length);
    if (response.json.nextPageToken === '') return { items, sizes };
    pageToken = response.json.nextPageToken;
  }
  throw new Error('the walk did not end');
}

describe('GET /api/v1/apps (query pagination)', () => {
  it('walks 120 apps, bare, 25 a page by default, each once, "" at the end', async () => {
    const { items, sizes } = await walk((pageToken) => listApps(pageToken === undefined ? '' : `?page_token=${encodeURIComponent(pageToken)}`));
    expect(sizes).toEqual([25, 25, 25, 25, 20]);
    const ids = items.map((item) => (item as { id: string }).id);
    expect(new Set(ids).size).toBe(APPS);
    expect(ids).toContain(t.profile.apps.owners.appId);
    expect(items[0]).not.toHaveProperty('app');
  });
  it('clamps: 9 → 10, 0 → 10, 101 → 100, 4294967306 → 100; non-integer → 400', async () => {
    for (const [size, expected] of [['9', 10], ['0', 10], ['-3', 10], ['101', 100], ['4294967306', 100], ['9223372036854775808', 100]] as const) {
      expect((await listApps(`?page_size=${size}`)).json.list).toHaveLength(expected);
    }
    expect((await listApps('?page_size=1.5')).status).toBe(400);
  });
  it('refuses a token of another listing', async () => {
    const entitlementsToken = (await call(`${t.baseUrl}/api/v1/apps/${t.profile.apps.entitlements.large.appId}/entitlements`, { headers: { authorization: `Bearer ${token}` } })).json.nextPageToken;
    expect((await listApps(`?page_token=${encodeURIComponent(entitlementsToken)}`)).status).toBe(400);
  });
  it('answers 401 without a token or with an unknown one, 405 to POST', async () => {
    for (const auth of [null, 'Bearer nope']) {
      const response = await listApps('', auth);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await call(`${t.baseUrl}/api/v1/apps`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
  });
});

describe('POST /api/v1/search/apps and /api/v1/search/entitlements (body pagination)', () => {
  it('walks the entitlements wrapped in appEntitlement with pageToken in the body, as the SDK iterator does', async () => {
    const { items, sizes } = await walk((pageToken) => search('entitlements', pageToken === undefined ? {} : { pageToken }));
    expect(sizes.slice(0, -1).every((size) => size === 25)).toBe(true);
    expect(items).toHaveLength(ENTITLEMENTS);
    const ids = items.map((item) => (item as { appEntitlement: { id: string } }).appEntitlement.id);
    expect(new Set(ids).size).toBe(ENTITLEMENTS);
  });
  it('honours pageSize and page_size, as numbers and as strings; clamps like the query', async () => {
    for (const [body, expected] of [
      [{ pageSize: 40 }, 40],
      [{ page_size: 40 }, 40],
      [{ pageSize: '40' }, 40],
      [{ pageSize: 3 }, 10],
      [{ pageSize: 0 }, 10],
      [{ pageSize: 250 }, 100],
      [{ pageSize: 4294967306 }, 100],
      [{ pageSize: null }, 25],
      [{}, 25],
    ] as const) {
      expect((await search('apps', body)).json.list, JSON.stringify(body)).toHaveLength(expected);
    }
    expect((await search('apps', '')).json.list).toHaveLength(25);
  });
  it('answers 400 to a non-integer size, both spellings at once, a non-object body, a bad token', async () => {
    for (const body of [{ pageSize: 1.5 }, { pageSize: 'ten' }, { pageSize: 10, page_size: 10 }, [], 'not json', { pageToken: 'x.y' }, { pageToken: 5 }]) {
      expect((await search('apps', body)).status, JSON.stringify(body)).toBe(400);
    }
  });
  it('binds a token to the search and its filters; page_token in the body works as pageToken', async () => {
    const first = await search('entitlements', { pageSize: 10 });
    const next = first.json.nextPageToken as string;
    expect((await search('entitlements', { page_token: next, pageSize: 10 })).status).toBe(200);
    expect((await search('apps', { pageToken: next })).status).toBe(400);
    expect((await search('entitlements', { pageToken: next, appIds: [t.profile.apps.entitlements.large.appId] })).status).toBe(400);
  });
  it('searches 150 users, wrapped in user, the owners among them', async () => {
    const found = await walk((pageToken) => call(`${t.baseUrl}/api/v1/search/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ pageSize: 100, ...(pageToken ? { pageToken } : {}) }),
    }));
    expect(found.sizes).toEqual([100, 50]);
    const ids = found.items.map((item) => (item as { user: { id: string } }).user.id);
    expect(new Set(ids).size).toBe(150);
    for (const owner of t.profile.apps.owners.ownerIds ?? []) expect(ids).toContain(owner);
  });
  it('filters by app IDs', async () => {
    const found = await walk((pageToken) => search('entitlements', { appIds: [t.profile.apps.entitlements.exact.appId], pageSize: 100, ...(pageToken ? { pageToken } : {}) }));
    expect(found.items).toHaveLength(50);
  });
  it('answers 401 without a token or with an unknown one, 405 to GET', async () => {
    for (const what of ['apps', 'entitlements'] as const) {
      expect((await search(what, {}, null)).status).toBe(401);
      expect((await search(what, {}, 'Bearer nope')).status).toBe(401);
      expect((await call(`${t.baseUrl}/api/v1/search/${what}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(405);
    }
  });
});

describe('the served description (§9)', () => {
  it('is OpenAPI 3.1 with the operations offered, without a token', async () => {
    const response = await call(`${t.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.json.openapi).toBe('3.1.0');
    expect(response.json.servers[0].url).toBe(t.baseUrl);
    expect(response.json.components.securitySchemes.oauth.flows.clientCredentials.tokenUrl).toBe('/auth/v1/token');
    const operations = Object.entries(response.json.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`));
    expect(operations).toEqual([
      'GET /api/v1/apps c1.api.app.v1.Apps.List',
      'GET /api/v1/apps/{app_id}/entitlements c1.api.app.v1.AppEntitlements.List',
      'GET /api/v1/apps/{app_id}/ownerids c1.api.app.v1.AppOwners.ListOwnerIDs',
      'POST /api/v1/search/apps c1.api.app.v1.AppSearch.Search',
      'POST /api/v1/search/users c1.api.user.v1.UserSearch.Search',
      'POST /api/v1/search/entitlements c1.api.app.v1.AppEntitlementSearchService.Search',
    ]);
  });
});
