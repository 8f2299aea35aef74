/**
 * Page fetching and walking for the pagination suite. The client has a walker too, but it stops with a
 * harness error on a loop; here every deviation of the target (a repeated token, more pages than the items
 * allow, a non-string token) is recorded per page so each check can assert exactly its own rule.
 */
import type { HttpResponse, PageOptions, TargetClient } from '../../src/client/types.js';
import { expectJsonObject, expectStatus, fail, jsonType } from './expect.js';

export interface Page {
  /** 1-based. */
  number: number;
  list: unknown[];
  /** `list` as received: an array, or null or absent (`undefined`) on an empty page (ruling 34). */
  rawList: unknown;
  /** As received: may be a non-string or `undefined` (absent) on a faulty target. */
  nextPageToken: unknown;
  res: HttpResponse;
}

/**
 * One page: 200, a JSON object, `list` an array, or null or absent, which ruling 34 lets an empty page carry
 * (read as no items; PAGE-24 asks for `[]`). Other fields are left to the checks.
 */
export async function fetchPage(client: TargetClient, appId: string, options: PageOptions, what: string): Promise<Page> {
  const res = await client.entitlementsPage(appId, { label: what, ...options });
  expectStatus(res, 200, what);
  const body = expectJsonObject(res, what);
  const rawList = body.list;
  if (!Array.isArray(rawList) && rawList !== null && rawList !== undefined) fail(`${what}: list is not an array`, 'an array (or null or absent on an empty page)', jsonType(rawList));
  return { number: 1, list: Array.isArray(rawList) ? rawList : [], rawList, nextPageToken: body.nextPageToken, res };
}

export interface WalkOptions {
  pageSize?: number;
  /** Send `page_token=` on the first request. */
  emptyFirstToken?: boolean;
  /** The items the profile says the app holds: bounds the walk. */
  expectedCount: number;
  what: string;
}

/**
 * Follows nextPageToken while it is a non-empty string. Fails (ConformanceFailure) when a token repeats or
 * the walk needs more pages than `expectedCount` items can fill (+2 for slack), since either means the walk
 * would never return every item exactly once.
 */
export async function walkPages(client: TargetClient, appId: string, options: WalkOptions): Promise<Page[]> {
  const size = Math.min(100, Math.max(10, options.pageSize ?? 25));
  const maxPages = Math.ceil(options.expectedCount / size) + 2;
  const pages: Page[] = [];
  const seenTokens = new Set<string>();
  let token: string | undefined = options.emptyFirstToken ? '' : undefined;
  for (;;) {
    const number = pages.length + 1;
    const page = await fetchPage(client, appId, { pageSize: options.pageSize, pageToken: token }, `${options.what}, page ${number}`);
    pages.push({ ...page, number });
    const next = page.nextPageToken;
    if (typeof next !== 'string' || next === '') return pages;
    if (seenTokens.has(next)) {
      fail(`${options.what}: page ${number} repeats an earlier nextPageToken (the walk would loop)`, 'a new token per page', 'a repeated token');
    }
    if (number >= maxPages) {
      fail(`${options.what}: still not at the end after ${number} pages`, `at most ${maxPages - 2} page(s) for ${options.expectedCount} items`,
        `${pages.reduce((sum, p) => sum + p.list.length, 0)} items over ${number} pages and a non-empty nextPageToken`);
    }
    seenTokens.add(next);
    token = next;
  }
}

/** Identity of an item: `appEntitlement.id` when it is a string, else its canonical JSON. */
export function itemKey(item: unknown): string {
  if (typeof item === 'object' && item !== null) {
    const inner = (item as Record<string, unknown>).appEntitlement;
    if (typeof inner === 'object' && inner !== null) {
      const id = (inner as Record<string, unknown>).id;
      if (typeof id === 'string' && id !== '') return `id:${id}`;
    }
  }
  return `json:${canonicalJson(item)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The walk returned `expectedCount` items, none twice. */
export function expectEveryItemOnce(pages: readonly Page[], expectedCount: number, what: string): void {
  const keys = pages.flatMap((page) => page.list.map(itemKey));
  const distinct = new Set(keys);
  const duplicates = keys.length - distinct.size;
  if (duplicates > 0) {
    fail(`${what}: ${duplicates} item(s) returned more than once`, `${expectedCount} distinct items`,
      `${keys.length} items, ${distinct.size} distinct, over ${pages.length} page(s)`);
  }
  if (keys.length !== expectedCount) {
    fail(`${what}: the walk returned ${keys.length} items, the profile says ${expectedCount}`, `${expectedCount} items`,
      `${keys.length} items over ${pages.length} page(s); page sizes ${pages.map((p) => p.list.length).join(', ')}`);
  }
}

/** A short description of a token value for reports (tokens are opaque, not secret; still cut short). */
export function describeToken(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (value === null) return 'null';
  if (typeof value !== 'string') return `${jsonType(value)} ${JSON.stringify(value)?.slice(0, 40)}`;
  return value === '' ? '""' : `"${value.length > 24 ? `${value.slice(0, 24)}…` : value}"`;
}
