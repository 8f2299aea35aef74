/**
 * §4.4 Pagination (rulings 9–12, 32–34) on `GET /api/v1/apps/{app_id}/entitlements`: page_size defaults and
 * clamping (0 as 10 or 25; values beyond any integer type as 100, or refused), the first page_token, walks
 * that return every item exactly once, `""` exactly on the page with the last item (also when the items fill
 * it exactly), the wrapped item shape, an empty page's `list`, and invalid tokens (SHOULD).
 */
import type { CountedApp } from '../src/profile/types.js';
import type { HttpResponse } from '../src/client/types.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { PAGE_SIZES_BEYOND_RANGE } from '../src/requirements/pagination.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectField, expectJsonObject, expectStatus, expectThat, fail, jsonType } from './support/expect.js';
import { describeToken, expectEveryItemOnce, fetchPage, itemKey, walkPages, type Page } from './support/pages.js';

function large(ctx: CheckContext): CountedApp {
  return ctx.profile.apps.entitlements.large!;
}

function exact(ctx: CheckContext): CountedApp {
  return ctx.profile.apps.entitlements.exact!;
}

/**
 * page_size `sent` must act as `effective`: the first page of the large app holds exactly `effective` items.
 * Only observable when the app holds more items than that; otherwise the check is skipped with the reason.
 */
async function expectPageLength(ctx: CheckContext, sent: number | undefined, effective: number): Promise<void> {
  const app = large(ctx);
  if (app.count <= effective) {
    ctx.skip(`the profile's large app holds ${app.count} items; a page of ${effective} cannot be told from a larger one`);
  }
  const what = sent === undefined ? 'first page without page_size' : `first page with page_size=${sent}`;
  const page = await fetchPage(ctx.client, app.appId, { pageSize: sent }, what);
  expectThat(page.list.length === effective, `${what}: holds ${page.list.length} items`, `${effective} items`, `${page.list.length} items`);
}

/** The page lengths `sent` may act as, any of them: the first page of the large app holds one of them. */
async function expectPageLengthOneOf(ctx: CheckContext, sent: number, effective: readonly number[]): Promise<void> {
  const app = large(ctx);
  const largest = Math.max(...effective);
  if (app.count <= largest) {
    ctx.skip(`the profile's large app holds ${app.count} items; a page of ${largest} cannot be told from a larger one`);
  }
  const what = `first page with page_size=${sent}`;
  const page = await fetchPage(ctx.client, app.appId, { pageSize: sent }, what);
  const allowed = effective.join(' or ');
  expectThat(effective.includes(page.list.length), `${what}: holds ${page.list.length} items`, `${allowed} items`, `${page.list.length} items`);
}

/** The number of items of an accepted page, or undefined when the body is no page. */
function pageLength(res: HttpResponse): number | undefined {
  const list = (res.json() as { list?: unknown } | undefined)?.list;
  return Array.isArray(list) ? list.length : undefined;
}

/** The values of ruling 32, by the ID of their MUST check (the catalogue's order). */
const BEYOND_RANGE: ReadonlyArray<[RequirementId, string]> = [
  ['PAGE-31', PAGE_SIZES_BEYOND_RANGE[0].value],
  ['PAGE-32', PAGE_SIZES_BEYOND_RANGE[1].value],
  ['PAGE-33', PAGE_SIZES_BEYOND_RANGE[2].value],
  ['PAGE-34', PAGE_SIZES_BEYOND_RANGE[3].value],
];

/** Ruling 32: a page_size beyond the integer range acts as 100 when accepted; a 400 passes and is noted. */
async function expectBeyondRange(ctx: CheckContext, pageSize: string): Promise<void> {
  const app = large(ctx);
  if (app.count <= 100) ctx.skip(`the profile's large app holds ${app.count} items; a page of 100 cannot be told from a larger one`);
  const what = `first page with page_size=${pageSize}`;
  const res = await ctx.client.entitlementsPage(app.appId, { pageSize, label: what });
  expectStatus(res, (status) => status === 200 || status === 400, what, '200 with a page of 100, or 400');
  if (res.status === 400) {
    ctx.note(`${what}: refused 400 (allowed: the service's integer type cannot hold it)`);
    return;
  }
  const length = pageLength(res);
  expectThat(length === 100, `${what}: accepted, but the page holds ${length ?? 'no list of'} items`, '100 items (a value above 100 acts as 100)', `${length ?? 'no list'}`);
}

/** A SHOULD-400 probe on the first page. */
async function expect400(ctx: CheckContext, appId: string, options: { pageSize?: string; pageToken?: string }, what: string): Promise<void> {
  expectStatus(await ctx.client.entitlementsPage(appId, { ...options, label: what }), 400, what);
}

/** The page holding the last item carries "" and no page follows it. */
function expectEndOnLastItem(pages: readonly Page[], count: number, what: string): void {
  const last = pages[pages.length - 1]!;
  const lastHolder = [...pages].reverse().find((page) => page.list.length > 0);
  if (count > 0 && lastHolder !== last) {
    fail(`${what}: an empty page ${last.number} follows the page with the last item`, 'nextPageToken "" on the page holding the last item',
      `page ${lastHolder?.number ?? '?'} carried ${describeToken(lastHolder?.nextPageToken)}, then an empty page`);
  }
  expectThat(last.nextPageToken === '', `${what}: the last page does not carry ""`, 'nextPageToken ""', describeToken(last.nextPageToken));
}

/** Walks the large app at a page size and expects every item exactly once. */
async function walkLargeOnce(ctx: CheckContext, pageSize: number): Promise<void> {
  const app = large(ctx);
  const what = `walk of the large app at page_size=${pageSize}`;
  expectEveryItemOnce(await walkPages(ctx.client, app.appId, { pageSize, expectedCount: app.count, what }), app.count, what);
}

/** A page size in 10..100 that divides `count`, preferring 25 (the profile recommends a multiple of 25). */
function dividingPageSize(count: number): number | undefined {
  if (count > 0 && count % 25 === 0) return 25;
  for (let size = 10; size <= 100; size += 1) if (count > 0 && count % size === 0) return size;
  return undefined;
}

group.concurrent('§4.4 Pagination', () => {
  check('PAGE-01', async (ctx) => expectPageLength(ctx, undefined, 25));
  check('PAGE-02', async (ctx) => expectPageLengthOneOf(ctx, 0, [10, 25]));
  check('PAGE-03', async (ctx) => expectPageLength(ctx, 1, 10));
  check('PAGE-04', async (ctx) => expectPageLength(ctx, 9, 10));
  check('PAGE-05', async (ctx) => expectPageLength(ctx, 10, 10));
  check('PAGE-06', async (ctx) => expectPageLength(ctx, 100, 100));
  check('PAGE-07', async (ctx) => expectPageLength(ctx, 101, 100));
  check('PAGE-08', async (ctx) => expectPageLength(ctx, 10000, 100));
  check('PAGE-09', async (ctx) => expectPageLength(ctx, -1, 10));
  check('PAGE-10', async (ctx) => expectPageLength(ctx, -50, 10));

  check('PAGE-11', async (ctx) => expect400(ctx, large(ctx).appId, { pageSize: 'abc' }, 'first page with page_size=abc'));
  check('PAGE-12', async (ctx) => expect400(ctx, large(ctx).appId, { pageSize: '12.5' }, 'first page with page_size=12.5'));

  check('PAGE-13', async (ctx) => {
    const app = large(ctx);
    const omitted = await fetchPage(ctx.client, app.appId, {}, 'first page without page_token');
    const empty = await fetchPage(ctx.client, app.appId, { pageToken: '' }, 'first page with page_token=');
    const a = omitted.list.map(itemKey).join('\n');
    const b = empty.list.map(itemKey).join('\n');
    expectThat(a === b, 'page_token= gives another first page than no page_token', `the same ${omitted.list.length} items in the same order`,
      `${empty.list.length} items${empty.list.length === omitted.list.length ? ', different or reordered' : ''}`);
  });

  check('PAGE-14', async (ctx) => walkLargeOnce(ctx, 10), { timeout: 120_000 });
  check('PAGE-15', async (ctx) => walkLargeOnce(ctx, 25), { timeout: 120_000 });
  check('PAGE-16', async (ctx) => walkLargeOnce(ctx, 100), { timeout: 120_000 });

  check('PAGE-17', async (ctx) => {
    const app = large(ctx);
    const what = 'walk of the large app starting with page_token=';
    const pages = await walkPages(ctx.client, app.appId, { pageSize: 25, emptyFirstToken: true, expectedCount: app.count, what });
    expectEveryItemOnce(pages, app.count, what);
  }, { timeout: 120_000 });

  check('PAGE-18', async (ctx) => {
    const app = large(ctx);
    const what = 'walk of the large app at page_size=25';
    const pages = await walkPages(ctx.client, app.appId, { pageSize: 25, expectedCount: app.count, what });
    expectEndOnLastItem(pages, app.count, what);
  }, { timeout: 120_000 });

  check('PAGE-19', async (ctx) => {
    const app = exact(ctx);
    const size = dividingPageSize(app.count);
    if (size === undefined) ctx.skip(`the profile's exact app holds ${app.count} items: no page size in 10..100 divides it`);
    const what = `walk of the exact app (${app.count} items) at page_size=${size}`;
    const pages = await walkPages(ctx.client, app.appId, { pageSize: size, expectedCount: app.count, what });
    expectEndOnLastItem(pages, app.count, what);
  });

  check('PAGE-20', async (ctx) => {
    const app = exact(ctx);
    if (app.count < 10 || app.count > 100) ctx.skip(`the profile's exact app holds ${app.count} items, not a page size in 10..100`);
    const what = `first page of the exact app at page_size=${app.count}`;
    const page = await fetchPage(ctx.client, app.appId, { pageSize: app.count }, what);
    expectThat(page.list.length === app.count, `${what}: holds ${page.list.length} items`, `all ${app.count} items`, `${page.list.length} items`);
    expectThat(page.nextPageToken === '', `${what}: the page holding every item does not carry ""`, 'nextPageToken ""', describeToken(page.nextPageToken));
  });

  check('PAGE-21', async (ctx) => {
    const app = exact(ctx);
    if (app.count === 0 || app.count >= 100) ctx.skip(`the profile's exact app holds ${app.count} items; a partly filled page of 100 needs 1..99`);
    const what = 'first page of the exact app at page_size=100';
    const page = await fetchPage(ctx.client, app.appId, { pageSize: 100 }, what);
    expectThat(page.list.length === app.count, `${what}: holds ${page.list.length} items`, `all ${app.count} items`, `${page.list.length} items`);
    expectThat(page.nextPageToken === '', `${what}: the only page does not carry ""`, 'nextPageToken ""', describeToken(page.nextPageToken));
  });

  check('PAGE-22', async (ctx) => {
    const app = large(ctx);
    const what = 'walk of the large app at page_size=10';
    const pages = await walkPages(ctx.client, app.appId, { pageSize: 10, expectedCount: app.count, what });
    let seen = 0;
    for (const page of pages) {
      seen += page.list.length;
      if (seen < app.count) {
        expectThat(typeof page.nextPageToken === 'string' && page.nextPageToken !== '',
          `${what}: page ${page.number} ends after ${seen} of ${app.count} items without a next token`, 'a non-empty nextPageToken',
          describeToken(page.nextPageToken));
      }
    }
    expectThat(seen >= app.count, `${what}: the walk ended after ${seen} of ${app.count} items`, `${app.count} items`, `${seen} items`);
  }, { timeout: 120_000 });

  check('PAGE-23', async (ctx) => {
    const app = large(ctx);
    const what = 'walk of the large app at page_size=25';
    const pages = await walkPages(ctx.client, app.appId, { pageSize: 25, expectedCount: app.count, what });
    const bad = pages.find((page) => typeof page.nextPageToken !== 'string');
    if (bad) fail(`${what}: page ${bad.number} has a nextPageToken that is not a string`, 'a string on every page', describeToken(bad.nextPageToken));
  }, { timeout: 120_000 });

  check('PAGE-24', async (ctx) => {
    const what = 'first page of the empty app';
    const page = await fetchPage(ctx.client, ctx.profile.apps.entitlements.empty!.appId, {}, what);
    expectThat(page.list.length === 0, `${what}: list is not empty`, 'list: []', `${page.list.length} item(s)`);
    expectThat(Array.isArray(page.rawList), `${what}: list is ${page.rawList === null ? 'null' : 'absent'}`, 'list: []', page.rawList === null ? 'list: null' : 'no list member');
  });

  check('PAGE-25', async (ctx) => {
    const what = 'first page of the empty app';
    const page = await fetchPage(ctx.client, ctx.profile.apps.entitlements.empty!.appId, {}, what);
    expectThat(page.nextPageToken === '', `${what}: nextPageToken is not ""`, 'nextPageToken ""', describeToken(page.nextPageToken));
  });

  check('PAGE-26', async (ctx) => {
    const what = 'first page of the large app';
    const page = await fetchPage(ctx.client, large(ctx).appId, {}, what);
    if (page.list.length === 0) fail(`${what}: no items to inspect`, 'items wrapped as {"appEntitlement": {...}}', 'list: []');
    const index = page.list.findIndex((item) => {
      const inner = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>).appEntitlement : undefined;
      return typeof inner !== 'object' || inner === null || Array.isArray(inner);
    });
    if (index >= 0) {
      const item = page.list[index];
      const shape = typeof item === 'object' && item !== null && !Array.isArray(item) ? `object with keys ${Object.keys(item).join(', ') || '(none)'}` : jsonType(item);
      fail(`${what}: item ${index} is not wrapped as appEntitlement`, '{"appEntitlement": {...}}', shape);
    }
  });

  check('PAGE-27', async (ctx) => {
    const what = 'first page of the large app';
    const res = await ctx.client.entitlementsPage(large(ctx).appId, { label: what });
    expectStatus(res, 200, what);
    const body = expectJsonObject(res, what);
    const list = expectField(body, 'list', what);
    expectThat(Array.isArray(list), `${what}: list is not an array`, 'an array', jsonType(list));
    expectField(body, 'nextPageToken', what);
  });

  check('PAGE-30', async (ctx) => expectPageLength(ctx, 0, 10));

  for (const [id, pageSize] of BEYOND_RANGE) check(id, async (ctx) => expectBeyondRange(ctx, pageSize));

  check('PAGE-35', async (ctx) => {
    const app = large(ctx);
    for (const [, pageSize] of BEYOND_RANGE) {
      const what = `first page with page_size=${pageSize}`;
      const res = await ctx.client.entitlementsPage(app.appId, { pageSize, label: what });
      ctx.note(`${what}: ${res.status === 200 ? `accepted, ${pageLength(res) ?? 'no list of'} items` : `refused ${res.status}`}`);
    }
  });

  check('PAGE-28', async (ctx) => {
    const first = await fetchPage(ctx.client, large(ctx).appId, { pageSize: 10 }, 'first page of the large app at page_size=10');
    if (typeof first.nextPageToken !== 'string' || first.nextPageToken === '') {
      fail('the large app gave no next token to reuse (see PAGE-22)', 'a non-empty nextPageToken', describeToken(first.nextPageToken));
    }
    await expect400(ctx, exact(ctx).appId, { pageToken: first.nextPageToken }, 'exact app with a page_token from the large app');
  });

  check('PAGE-29', async (ctx) => {
    const garbage = ctx.faker.string.alphanumeric(32);
    await expect400(ctx, large(ctx).appId, { pageToken: garbage }, 'large app with a garbage page_token');
  });
});
