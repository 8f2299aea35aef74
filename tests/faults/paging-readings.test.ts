/**
 * The page-size and list readings of faults and variants (src/faults/support/paging.ts) act on every
 * paginated operation of the reference, not only the app entitlements (ruling 34): the query of a GET, the
 * JSON body of a POST in either spelling, as a number or a string. Each sandbox runs over real HTTP on
 * 127.0.0.1, the fault or variant applied as `run --fault` applies it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFault } from '../../src/faults/index.js';
import { getVariant } from '../../src/variants/index.js';
import type { SandboxCustomize } from '../../src/tenant/types.js';
import { startTestSandbox, type TestSandbox } from '../reference/support/sandbox.js';
import { call, type WireResponse } from '../reference/support/wire.js';

interface Target {
  t: TestSandbox;
  token: string;
}

async function start(customize?: SandboxCustomize): Promise<Target> {
  const t = await startTestSandbox({ tokenTtlSeconds: 600, ...(customize ? { customize } : {}) });
  return { t, token: await t.token() };
}

function customizeOf(name: string): SandboxCustomize {
  const found = getFault(name)?.customize ?? getVariant(name)?.customize;
  if (found === undefined) throw new Error(`no fault or variant ${name}`);
  return found;
}

const get = (target: Target, path: string): Promise<WireResponse> =>
  call(`${target.t.baseUrl}${path}`, { headers: { authorization: `Bearer ${target.token}` } });

/** A POST search with a raw JSON body (so a page size can be written with every digit). */
const search = (target: Target, what: 'apps' | 'entitlements', body: string): Promise<WireResponse> =>
  call(`${target.t.baseUrl}/api/v1/search/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    body,
  });

/** Every paginated operation the reference offers, asked for a first page with `size` as written. */
function firstPages(target: Target, size: string): Array<[string, () => Promise<WireResponse>]> {
  const large = target.t.profile.apps.entitlements.large!.appId;
  const query = `page_size=${encodeURIComponent(size)}`;
  return [
    ['GET entitlements', () => get(target, `/api/v1/apps/${large}/entitlements?${query}`)],
    ['GET apps', () => get(target, `/api/v1/apps?${query}`)],
    ['POST search/apps pageSize number', () => search(target, 'apps', `{"pageSize": ${size}}`)],
    ['POST search/apps pageSize string', () => search(target, 'apps', JSON.stringify({ pageSize: size }))],
    ['POST search/entitlements page_size number', () => search(target, 'entitlements', `{"page_size": ${size}}`)],
  ];
}

async function lengths(target: Target, size: string): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const [what, send] of firstPages(target, size)) {
    const response = await send();
    out[what] = response.status === 200 && Array.isArray(response.json.list) ? response.json.list.length : `status ${response.status}`;
  }
  return out;
}

const every = (value: number | string): Record<string, number | string> =>
  Object.fromEntries(['GET entitlements', 'GET apps', 'POST search/apps pageSize number', 'POST search/apps pageSize string', 'POST search/entitlements page_size number'].map((what) => [what, value]));

describe('page-size readings on every paginated operation', () => {
  let reference: Target;
  let wrap: Target;
  let zero: Target;
  beforeAll(async () => {
    [reference, wrap, zero] = await Promise.all([start(), start(customizeOf('page-size-int32-wrap')), start(customizeOf('page-size-zero-default'))]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([reference, wrap, zero].map((target) => target?.t.close()));
  });

  it('the reference: every value beyond the integer range acts as 100, also past 2^53 in a JSON number', async () => {
    for (const size of ['2147483648', '4294967306', '9223372036854775808', '1000000000000000000011572748559702818866']) {
      expect(await lengths(reference, size), size).toEqual(every(100));
    }
  });

  it('page-size-int32-wrap: a 32-bit wrap on every operation (4294967306 → 10, 2147483648 → negative → 10, 40 digits → 50)', async () => {
    expect(await lengths(wrap, '4294967306')).toEqual(every(10));
    expect(await lengths(wrap, '2147483648')).toEqual(every(10));
    expect(await lengths(wrap, '1000000000000000000011572748559702818866')).toEqual(every(50));
    // In range, the wrap changes nothing.
    expect(await lengths(wrap, '40')).toEqual(every(40));
  });

  it('page-size-zero-default: 0 is the default page on every operation; negatives still act as 10', async () => {
    expect(await lengths(zero, '0')).toEqual(every(25));
    expect(await lengths(zero, '-1')).toEqual(every(10));
    expect(await lengths(reference, '0')).toEqual(every(10));
  });
});

describe('page-empty-list-null on every list page', () => {
  let target: Target;
  beforeAll(async () => {
    target = await start(customizeOf('page-empty-list-null'));
  }, 60_000);
  afterAll(async () => target?.t.close());

  it('an empty page of the entitlement list or a search answers list: null; a page with items keeps its array', async () => {
    const empty = await get(target, `/api/v1/apps/${target.t.profile.apps.entitlements.empty!.appId}/entitlements`);
    expect(empty.status).toBe(200);
    expect(empty.json).toEqual({ list: null, nextPageToken: '' });
    const none = await search(target, 'apps', JSON.stringify({ query: `no-such-app-${Date.now()}` }));
    expect(none.status).toBe(200);
    if (Array.isArray(none.json.list)) throw new Error(`a search without matches answered ${JSON.stringify(none.json).slice(0, 200)}`);
    expect(none.json.list).toBeNull();
    const full = await get(target, '/api/v1/apps?page_size=10');
    expect(full.json.list).toHaveLength(10);
  });
});
