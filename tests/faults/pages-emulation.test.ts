/**
 * Pagination faults re-list entitlements themselves (src/faults/support/pages.ts). With no rule changed
 * that listing must be indistinguishable from the reference's, or a pagination fault would break more than
 * its one rule. Both handlers run in-process over the same generated tenant.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { customizeOf } from '../../src/faults/support/define.js';
import { paginationFault } from '../../src/faults/support/pages.js';
import { createReference, defaultDeps } from '../../src/reference/reference.js';
import type { ReferenceHandler, ReferenceRequest } from '../../src/reference/types.js';
import { generateTenant } from '../../src/tenant/generate.js';
import type { Tenant } from '../../src/tenant/types.js';

const identity = { customize: customizeOf('identity-listing', paginationFault({ rules: {} })) };

interface Side {
  handle: ReferenceHandler;
  token: string;
}

let tenant: Tenant;
let reference: Side;
let emulated: Side;

function request(method: string, url: string, headers: Record<string, string> = {}, body = ''): ReferenceRequest {
  return { method, url, headers, remoteAddress: '127.0.0.1', body: Buffer.from(body) };
}

async function tokenFor(handle: ReferenceHandler): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: tenant.credentials.primary.clientId, client_secret: tenant.credentials.primary.clientSecret });
  const response = await handle(request('POST', '/auth/v1/token', { 'content-type': 'application/x-www-form-urlencoded' }, form.toString()));
  return (JSON.parse(String(response.body)) as { access_token: string }).access_token;
}

async function page(side: Side, appId: string, query: string): Promise<{ status: number; body: { list?: unknown[]; nextPageToken?: unknown } }> {
  const response = await side.handle(request('GET', `/api/v1/apps/${appId}/entitlements${query}`, { authorization: `Bearer ${side.token}` }));
  return { status: response.status, body: JSON.parse(String(response.body)) as { list?: unknown[]; nextPageToken?: unknown } };
}

/** Every page of a walk: its items and whether a token followed. Tokens differ (other keys) and are not compared. */
async function walk(side: Side, appId: string, size: string): Promise<Array<{ list: unknown[]; more: boolean }>> {
  const pages: Array<{ list: unknown[]; more: boolean }> = [];
  let token = '';
  for (let i = 0; i < 40; i += 1) {
    const { status, body } = await page(side, appId, `?page_size=${size}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`);
    expect(status).toBe(200);
    const next = body.nextPageToken as string;
    pages.push({ list: body.list ?? [], more: next !== '' });
    if (next === '') return pages;
    token = next;
  }
  throw new Error('walk did not end');
}

beforeAll(async () => {
  tenant = await generateTenant({ seed: 'pages-emulation', host: '127.0.0.1', port: 1 });
  const plain = createReference(tenant.reference);
  plain.close();
  const base = defaultDeps(tenant.reference);
  const replaced = identity.customize.deps!(base, tenant);
  const faulty = createReference(tenant.reference, { ...base, ...replaced });
  faulty.close();
  const wrapped = identity.customize.wrapHandler!(faulty.handle, tenant);
  reference = { handle: plain.handle, token: await tokenFor(plain.handle) };
  emulated = { handle: wrapped, token: await tokenFor(wrapped) };
});

describe('the pagination emulation with no rule changed', () => {
  test('walks every app at every page size to the same pages', async () => {
    const apps = [tenant.apps.large, tenant.apps.exact, tenant.apps.empty, tenant.apps.owners];
    for (const app of apps) {
      for (const size of ['', '0', '9', '10', '25', '50', '100', '101', '-5']) {
        expect(await walk(emulated, app.appId, size), `${app.appId} page_size=${size}`).toEqual(await walk(reference, app.appId, size));
      }
    }
  });

  test('answers invalid parameters, tokens and unknown apps with the same statuses', async () => {
    const large = tenant.apps.large.appId;
    const foreign = (await page(reference, tenant.apps.exact.appId, '?page_size=10')).body.nextPageToken as string;
    const cases = [
      `/${large}/entitlements?page_size=abc`,
      `/${large}/entitlements?page_size=12.5`,
      `/${large}/entitlements?page_size=10&page_size=20`,
      `/${large}/entitlements?page_token=garbage`,
      `/${large}/entitlements?page_token=a&page_token=b`,
      `/${large}/entitlements?page_token=`,
      `/${tenant.apps.missingAppId}/entitlements`,
    ];
    for (const path of cases) {
      const url = `/api/v1/apps${path}`;
      const a = await reference.handle(request('GET', url, { authorization: `Bearer ${reference.token}` }));
      const b = await emulated.handle(request('GET', url, { authorization: `Bearer ${emulated.token}` }));
      expect(b.status, path).toBe(a.status);
    }
    // A token of another app's listing, in each implementation's own token format.
    const emulatedForeign = (await page(emulated, tenant.apps.exact.appId, '?page_size=10')).body.nextPageToken as string;
    expect((await page(reference, large, `?page_token=${encodeURIComponent(foreign)}`)).status).toBe(400);
    expect((await page(emulated, large, `?page_token=${encodeURIComponent(emulatedForeign)}`)).status).toBe(400);
  });

  test('leaves authentication to the reference', async () => {
    const url = `/api/v1/apps/${tenant.apps.large.appId}/entitlements?page_size=10`;
    expect((await emulated.handle(request('GET', url))).status).toBe(401);
    expect((await emulated.handle(request('GET', url, { authorization: 'Bearer not-a-token' }))).status).toBe(401);
  });
});
