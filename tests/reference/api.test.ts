/** Bearer authentication, owner IDs and pagination (service.md §4.2, §4.4, §5.1; rulings 6, 8–12). */
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

const get = (path: string, auth: string | null = `Bearer ${token}`): Promise<WireResponse> =>
  call(`${t.baseUrl}${path}`, { headers: auth === null ? {} : { authorization: auth } });
const entitlements = (appId: string, query = ''): Promise<WireResponse> => get(`/api/v1/apps/${appId}/entitlements${query}`);

describe('bearer authentication (ruling 6)', () => {
  it('answers 401 with WWW-Authenticate: Bearer without a token, with an unknown one, with another scheme', async () => {
    const path = `/api/v1/apps/${t.profile.apps.owners.appId}/ownerids`;
    for (const auth of [null, 'Bearer not-a-token', `Basic ${token}`, 'Bearer']) {
      const response = await get(path, auth);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });
  it('accepts the scheme in any case', async () => {
    expect((await get(`/api/v1/apps/${t.profile.apps.owners.appId}/ownerids`, `bearer ${token}`)).status).toBe(200);
  });
});

describe('owner IDs (ruling 8)', () => {
  it('lists the owners', async () => {
    const response = await get(`/api/v1/apps/${t.profile.apps.owners.appId}/ownerids`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect([...response.json.userIds].sort()).toEqual([...(t.profile.apps.owners.ownerIds ?? [])].sort());
  });
  it('answers null for an app without owners', async () => {
    const response = await get(`/api/v1/apps/${t.profile.apps.entitlements.empty.appId}/ownerids`);
    expect(response.json).toEqual({ userIds: null });
  });
  it('answers 404 for an unknown app, 405 for POST', async () => {
    expect((await get(`/api/v1/apps/${t.profile.apps.missingAppId}/ownerids`)).status).toBe(404);
    const post = await call(`${t.baseUrl}/api/v1/apps/${t.profile.apps.owners.appId}/ownerids`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(post.status).toBe(405);
  });
});

async function walk(appId: string, pageSize?: number, firstToken?: string): Promise<{ ids: string[]; pages: WireResponse[] }> {
  const ids: string[] = [];
  const pages: WireResponse[] = [];
  let pageToken = firstToken;
  for (let i = 0; i < 100; i += 1) {
    const query = new URLSearchParams();
    if (pageSize !== undefined) query.set('page_size', String(pageSize));
    if (pageToken !== undefined) query.set('page_token', pageToken);
    const response = await entitlements(appId, `?${query.toString()}`);
    expect(response.status).toBe(200);
    pages.push(response);
    for (const item of response.json.list) ids.push(item.appEntitlement.id);
    expect(typeof response.json.nextPageToken).toBe('string');
    if (response.json.nextPageToken === '') return { ids, pages };
    pageToken = response.json.nextPageToken;
  }
  throw new Error('page walk did not end');
}

describe('pagination (rulings 9–12)', () => {
  it('walks 237 items in pages of 25 by default, each item once, "" on the last page', async () => {
    const { ids, pages } = await walk(t.profile.apps.entitlements.large.appId);
    expect(ids).toHaveLength(237);
    expect(new Set(ids).size).toBe(237);
    expect(pages.map((p) => p.json.list.length)).toEqual([25, 25, 25, 25, 25, 25, 25, 25, 25, 12]);
    expect(pages[0]?.json.list[0]).toHaveProperty('appEntitlement.id');
  });
  it('ends with "" on an exactly full last page (50 items, 25 per page)', async () => {
    const { ids, pages } = await walk(t.profile.apps.entitlements.exact.appId, 25);
    expect(ids).toHaveLength(50);
    expect(pages).toHaveLength(2);
    expect(pages[1]?.json.nextPageToken).toBe('');
  });
  it('answers an empty list with "" for an app without entitlements, also with page_token=', async () => {
    const response = await entitlements(t.profile.apps.entitlements.empty.appId, '?page_token=');
    expect(response.json).toEqual({ list: [], nextPageToken: '' });
  });
  it('clamps page_size: below 10 acts as 10, above 100 as 100', async () => {
    const large = t.profile.apps.entitlements.large.appId;
    for (const [size, expected] of [['0', 10], ['-5', 10], ['3', 10], ['10', 10], ['100', 100], ['101', 100], ['99999999999999999999', 100]] as const) {
      const response = await entitlements(large, `?page_size=${size}`);
      expect({ size, count: response.json.list.length }).toEqual({ size, count: expected });
    }
    const { ids } = await walk(large, 100);
    expect(new Set(ids).size).toBe(237);
  });
  it('answers 400 to a non-integer page_size', async () => {
    for (const size of ['abc', '10.5', '1e2', '+10', '0x10', ' 10', 'true']) {
      const response = await entitlements(t.profile.apps.entitlements.large.appId, `?page_size=${encodeURIComponent(size)}`);
      expect({ size, status: response.status }).toEqual({ size, status: 400 });
    }
  });
  it('answers 400 to an invalid page token, one edited by hand, or one from another app', async () => {
    const large = t.profile.apps.entitlements.large.appId;
    const first = await entitlements(large);
    const next = first.json.nextPageToken as string;
    expect(next).not.toBe('');
    expect((await entitlements(large, `?page_token=${encodeURIComponent(next)}`)).status).toBe(200);
    const forged = `${Buffer.from('5').toString('base64url')}.${next.split('.')[1]}`;
    for (const bad of ['garbage', 'MjU', forged, `${next}x`]) {
      expect((await entitlements(large, `?page_token=${encodeURIComponent(bad)}`)).status).toBe(400);
    }
    expect((await entitlements(t.profile.apps.entitlements.exact.appId, `?page_token=${encodeURIComponent(next)}`)).status).toBe(400);
  });
  it('requires authentication and a known app', async () => {
    expect((await get(`/api/v1/apps/${t.profile.apps.entitlements.large.appId}/entitlements`, null)).status).toBe(401);
    expect((await entitlements(t.profile.apps.missingAppId)).status).toBe(404);
  });
});

describe('token expiry (clock hook)', () => {
  it('denies a token once expires_in has passed', async () => {
    const fresh = await t.token();
    const path = `/api/v1/apps/${t.profile.apps.owners.appId}/ownerids`;
    expect((await get(path, `Bearer ${fresh}`)).status).toBe(200);
    await t.advance(601);
    const response = await get(path, `Bearer ${fresh}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*invalid_token/);
  });
});
