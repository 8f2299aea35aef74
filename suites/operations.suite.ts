/**
 * Ruling 34: every list and search operation the run calls (the target's OpenAPI description, or the
 * profile's "operations"), each checked on its own, one result per operation: bearer authentication
 * (§5.1, ruling 6), the page-size rules (§4.4, rulings 9, 32, 33), the page tokens and the walk (rulings
 * 10–12), the page size in a search's JSON body in both spellings, the item wrapper where one is named,
 * and each page against the description's response schema. Totals are learned by a counting walk at page
 * size 100 (support/operations.ts), never taken from the profile: a check whose list is too short to tell
 * is skipped saying how many items it found and how many it needs.
 */
import { HarnessError } from '../src/errors.js';
import { checkEach, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { describeResponse, expectStatus, expectThat, fail } from './support/expect.js';
import { census, fetchOpPage, opItemKey, requestPage, walkOp, type OpPage, type SuiteOperation } from './support/operations.js';
import { tokenForPrecondition } from './support/token-checks.js';
import { expectSetupAccepted } from './support/webhook-expect.js';
import { validateResponse } from '../src/openapi/index.js';
import { OPERATION_BUDGET } from '../src/engine/operation-keys.js';

const name = (op: SuiteOperation): string => `${op.method.toUpperCase()} ${op.path}`;

/** The operation's total (counting walk), or a skip saying how many items it found and how many it needs. */
async function totalAtLeast(ctx: CheckContext, op: SuiteOperation, needed: number, why: string): Promise<number> {
  const counted = await census(ctx.client, ctx.run.runId, op);
  if (counted.total === undefined) {
    if (counted.atLeast >= needed) return counted.atLeast;
    return ctx.skip(`${name(op)}: the total is unknown (${counted.why ?? 'the counting walk did not end'}); ${why} needs at least ${needed} items`);
  }
  if (counted.total < needed) return ctx.skip(`${name(op)} lists ${counted.total} items; ${why} needs at least ${needed}`);
  return counted.total;
}

/** The first page with page size `sent` holds exactly min(total, effective) items. */
async function expectActsAs(ctx: CheckContext, op: SuiteOperation, sent: number | undefined, effective: number): Promise<void> {
  const total = await totalAtLeast(ctx, op, effective + 1, sent === undefined ? 'telling the default page from a longer one' : `telling a page of ${effective} from a longer one`);
  const what = `${name(op)}, first page ${sent === undefined ? 'without a page size' : `with page size ${sent}`}`;
  const page = await fetchOpPage(ctx.client, op, { pageSize: sent }, what);
  const expected = Math.min(total, effective);
  expectThat(page.list.length === expected, `${what}: holds ${page.list.length} items`, `${expected} items (the operation lists ${total})`, `${page.list.length} items`);
}

/** A refusal with the operation's own control first: the same first page with a fresh token must be 200. */
async function expectRefused(ctx: CheckContext, op: SuiteOperation, spoil: { token: string | null } , what: string): Promise<void> {
  expectSetupAccepted(await requestPage(ctx.client, op, {}, { label: `${name(op)}, first page with a fresh token (control)` }), `${name(op)}, first page with a fresh token`);
  const res = await requestPage(ctx.client, op, {}, { token: spoil.token, label: `${name(op)}, ${what}` });
  expectStatus(res, 401, `${name(op)}, ${what}`);
}

/** Checks every page of a walk for a string token, non-empty exactly while items remain. */
function expectTokens(pages: readonly OpPage[], total: number, what: string): void {
  let seen = 0;
  for (const page of pages) {
    seen += page.list.length;
    const token = page.nextPageToken;
    if (typeof token !== 'string') fail(`${what}: page ${page.number} has nextPageToken ${token === undefined ? 'absent' : JSON.stringify(token)}`, 'a string on every page', token === undefined ? 'absent' : typeof token);
    const remain = seen < total;
    if (remain && token === '') fail(`${what}: page ${page.number} carries "" with ${total - seen} items still to come`, 'a non-empty nextPageToken while items remain', '""');
    if (!remain && token !== '') fail(`${what}: page ${page.number} holds the last item but carries a non-empty nextPageToken`, 'nextPageToken ""', 'a non-empty token');
  }
}

group.concurrent('Ruling 34: every list and search operation', () => {
  checkEach('OPS-01', async (ctx, op) => expectRefused(ctx, op, { token: null }, 'first page without Authorization'));

  checkEach('OPS-02', async (ctx, op) => {
    const unknown = ctx.faker.string.alphanumeric(40);
    ctx.client.recorder.addSecret(unknown);
    await expectRefused(ctx, op, { token: unknown }, 'first page with an unknown bearer token');
  });

  checkEach('OPS-03', async (ctx, op) => {
    const hooks = ctx.client.hooks;
    if (!hooks) throw new HarnessError('HOOK_BROKEN', 'the clock hook was probed but the client has no hooks');
    const res = await ctx.client.requestToken({ method: 'secret', label: 'fresh basic-method token' });
    const token = tokenForPrecondition(res, ctx.client.recorder, 'fresh basic-method token');
    const lifetime = (res.json() as Record<string, unknown>).expires_in;
    if (typeof lifetime !== 'number' || !Number.isFinite(lifetime) || lifetime <= 0) return ctx.skip('the token response has no usable expires_in to advance past (see TOK-22)');
    try {
      expectSetupAccepted(await requestPage(ctx.client, op, {}, { token, label: `${name(op)}, first page with the fresh token (control)` }), `${name(op)}, first page with the fresh token`);
      await hooks.advance(Math.ceil(lifetime) + 60);
      const what = `${name(op)}, first page with a token past its expires_in`;
      expectStatus(await requestPage(ctx.client, op, {}, { token, label: what }), 401, what);
    } finally {
      // Every cached token is now expired on the target; later checks fetch new ones.
      ctx.client.resetTokens();
    }
  });

  checkEach('OPS-04', async (ctx, op) => {
    const counted = await census(ctx.client, ctx.run.runId, op);
    const what = `${name(op)}, walk at page size 100`;
    const walk = await walkOp(ctx.client, op, 100, OPERATION_BUDGET.censusPages, what);
    if (!walk.ended && walk.stopped?.includes('budget')) ctx.skip(`${what}: ${walk.stopped}; the end cannot be reached within the budget`);
    expectTokens(walk.pages, counted.total ?? counted.atLeast, what);
  });

  checkEach('OPS-05', async (ctx, op) => {
    const counted = await census(ctx.client, ctx.run.runId, op);
    if (counted.total === undefined) return ctx.skip(`${name(op)}: the total is unknown (${counted.why ?? 'the counting walk did not end'})`);
    const what = `${name(op)}, first page without a page size`;
    const page = await fetchOpPage(ctx.client, op, {}, what);
    const expected = Math.min(counted.total, 25);
    expectThat(page.list.length === expected, `${what}: holds ${page.list.length} items`, `${expected} items (the operation lists ${counted.total})`, `${page.list.length} items`);
    const more = counted.total > 25;
    const token = page.nextPageToken;
    expectThat(more ? typeof token === 'string' && token !== '' : token === '', `${what}: nextPageToken ${typeof token === 'string' ? (token === '' ? '""' : 'non-empty') : String(token)} with ${counted.total} items in all`,
      more ? 'a non-empty nextPageToken (more items remain)' : 'nextPageToken "" (no item remains)', typeof token === 'string' ? (token === '' ? '""' : 'a non-empty token') : jsonTypeOf(token));
  });

  checkEach('OPS-06', async (ctx, op) => expectActsAs(ctx, op, 9, 10));
  checkEach('OPS-07', async (ctx, op) => expectActsAs(ctx, op, 101, 100));

  checkEach('OPS-08', async (ctx, op) => {
    const total = await totalAtLeast(ctx, op, 11, 'telling a page of 10 from a longer one');
    const what = `${name(op)}, first page with page size 0`;
    const page = await fetchOpPage(ctx.client, op, { pageSize: 0 }, what);
    const allowed = [Math.min(total, 10), Math.min(total, 25)];
    expectThat(allowed.includes(page.list.length), `${what}: holds ${page.list.length} items`, `${allowed[0]} (0 as 10) or ${allowed[1]} (0 as the default 25)`, `${page.list.length} items`);
  });
  checkEach('OPS-09', async (ctx, op) => expectActsAs(ctx, op, 0, 10));

  checkEach('OPS-10', async (ctx, op) => {
    const total = await totalAtLeast(ctx, op, 11, 'telling a wrapped page size from 100');
    const what = `${name(op)}, first page with page size 4294967306 (2^32 + 10)`;
    const res = await requestPage(ctx.client, op, { pageSize: 4294967306 }, { label: what });
    if (res.status === 400) {
      ctx.note(`${what}: refused with 400 (ruling 32 accepts a refusal of a value the service's integer type cannot hold)`);
      return;
    }
    const page = await fetchOpPage(ctx.client, op, { pageSize: 4294967306 }, what);
    const expected = Math.min(total, 100);
    expectThat(page.list.length === expected, `${what}: holds ${page.list.length} items${page.list.length === 10 ? ' (the value wrapped to 10 in 32 bits)' : ''}`, `${expected} items (acting as 100) or 400`, `${page.list.length} items`);
  });

  checkEach('OPS-11', async (ctx, op) => {
    const counted = await census(ctx.client, ctx.run.runId, op);
    const budget = OPERATION_BUDGET.walkPages;
    if (counted.total !== undefined && Math.ceil(counted.total / 25) + 1 > budget) {
      ctx.skip(`${name(op)} lists ${counted.total} items: a walk at 25 takes more than the ${budget} pages an operation may cost`);
    }
    const what = `${name(op)}, walk at the default page size`;
    const walk = await walkOp(ctx.client, op, undefined, budget, what);
    if (!walk.ended) fail(`${what}: ${walk.stopped ?? 'did not end'}`, 'a walk that ends on nextPageToken ""', `${walk.pages.length} pages`);
    const keys = walk.pages.flatMap((page) => page.list.map((item) => opItemKey(op, item)));
    const distinct = new Set(keys);
    if (distinct.size !== keys.length) {
      const counts = new Map<string, number>();
      for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
      const repeated = [...counts].filter(([, n]) => n > 1).map(([key]) => key);
      fail(`${what}: ${keys.length - distinct.size} item(s) returned more than once (first ${repeated[0]})`, 'every item exactly once', `${keys.length} items, ${distinct.size} distinct`);
    }
    const last = walk.pages[walk.pages.length - 1]!;
    expectThat(last.nextPageToken === '', `${what}: the walk ended on nextPageToken ${JSON.stringify(last.nextPageToken) ?? 'absent'}`, 'nextPageToken ""', jsonTypeOf(last.nextPageToken));
    if (counted.total !== undefined) {
      const missing = counted.keys.filter((key) => !distinct.has(key));
      expectThat(missing.length === 0 && distinct.size === counted.total, `${what}: returned ${distinct.size} of the ${counted.total} items the walk at 100 found${missing.length ? ` (first missing ${missing[0]})` : ''}`,
        `all ${counted.total} items`, `${distinct.size} items`);
    }
  }, { timeout: 240_000 });

  checkEach('OPS-12', async (ctx, op) => {
    const counted = await census(ctx.client, ctx.run.runId, op);
    await totalAtLeast(ctx, op, 26, 'a second page of the default size');
    const first = await fetchOpPage(ctx.client, op, {}, `${name(op)}, first page`);
    if (typeof first.nextPageToken !== 'string' || first.nextPageToken === '') fail(`${name(op)}, first page: no token to open the next with`, 'a non-empty nextPageToken', jsonTypeOf(first.nextPageToken));
    const what = `${name(op)}, second page with the first page's nextPageToken`;
    const second = await fetchOpPage(ctx.client, op, { pageToken: first.nextPageToken }, what);
    const firstKeys = new Set(first.list.map((item) => opItemKey(op, item)));
    const secondKeys = second.list.map((item) => opItemKey(op, item));
    const repeated = secondKeys.filter((key) => firstKeys.has(key));
    expectThat(repeated.length === 0, `${what}: repeats ${repeated.length} item(s) of the first page (first ${repeated[0]})`, 'only items that follow the first page', `${repeated.length} repeated`);
    expectThat(second.list.length > 0, `${what}: holds no item`, 'the items that follow the first page', 'an empty page');
    // The walk at 100 saw the items in the operation's order: the second page continues it.
    const expected = counted.keys.slice(first.list.length, first.list.length + second.list.length);
    if (counted.total !== undefined && expected.length === secondKeys.length) {
      expectThat(expected.every((key, i) => key === secondKeys[i]), `${what}: does not hold the items that follow the first page`, `items ${first.list.length + 1}..${first.list.length + secondKeys.length} of the operation`, 'other items');
    }
  });

  checkEach('OPS-13', async (ctx, op) => {
    expectSetupAccepted(await requestPage(ctx.client, op, {}, { label: `${name(op)}, first page (control)` }), `${name(op)}, first page`);
    const forged = `${ctx.faker.string.alphanumeric(24)}.${ctx.faker.string.alphanumeric(22)}`;
    const what = `${name(op)}, a page token it never issued`;
    expectStatus(await requestPage(ctx.client, op, { pageToken: forged }, { label: what }), 400, what);
  });

  checkEach('OPS-14', async (ctx, op) => expectBodySpelling(ctx, op, op.bodyFields?.pageSize ?? 'page_size'));
  checkEach('OPS-15', async (ctx, op) => {
    const declared = op.bodyFields?.pageSize ?? 'page_size';
    const other = op.bodyFields?.alsoAccepts?.pageSize ?? (declared === 'page_size' ? 'pageSize' : 'page_size');
    await expectBodySpelling(ctx, op, other);
  });

  checkEach('OPS-16', async (ctx, op) => {
    const what = `${name(op)}, first page`;
    const page = await fetchOpPage(ctx.client, op, {}, what);
    const errors = validateResponse(op, page.res.status, page.body);
    if (errors.length > 0) fail(`${what}: does not match the description's response schema: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`, 'the 200 response schema of the description', describeResponse(page.res));
  });

  checkEach('OPS-18', async (ctx, op) => {
    await fetchOpPage(ctx.client, op, {}, `${name(op)}, first page with a fresh token`);
  });

  checkEach('OPS-17', async (ctx, op) => {
    const wrapper = op.itemWrapper!;
    const what = `${name(op)}, first page at page size 100`;
    const page = await fetchOpPage(ctx.client, op, { pageSize: 100 }, what);
    if (page.list.length === 0) ctx.skip(`${what}: holds no item to look at`);
    const bare = page.list.findIndex((item) => typeof item !== 'object' || item === null || typeof (item as Record<string, unknown>)[wrapper] !== 'object' || (item as Record<string, unknown>)[wrapper] === null);
    expectThat(bare < 0, `${what}: item ${bare + 1} is not wrapped in ${wrapper}`, `every item {"${wrapper}": {...}}`, JSON.stringify(page.list[bare])?.slice(0, 120) ?? 'undefined');
  });
});

/** A search honours a page size of 12 given in the body under `field` (12: neither a clamp nor the default). */
async function expectBodySpelling(ctx: CheckContext, op: SuiteOperation, field: string): Promise<void> {
  const total = await totalAtLeast(ctx, op, 13, 'telling a page of 12 from a longer one');
  const what = `${name(op)}, first page with {"${field}": 12} in the body`;
  const page = await fetchOpPage(ctx.client, op, { pageSize: 12, sizeField: field }, what);
  expectThat(page.list.length === Math.min(total, 12), `${what}: holds ${page.list.length} items${page.list.length === 25 ? ' (the default: the body\'s page size was not read)' : ''}`, '12 items', `${page.list.length} items`);
}

function jsonTypeOf(value: unknown): string {
  return value === undefined ? 'absent' : value === null ? 'null' : typeof value === 'string' ? (value === '' ? '""' : 'a non-empty string') : typeof value;
}
