/**
 * One list or search operation as the operations suite calls it (ruling 34): its request for a page (the
 * page size and token in the query for GET, in the JSON body for POST, in the spelling asked for), the page
 * it answers, and the counting walk at page size 100 that learns its total (never taken from the profile),
 * shared by the checks of one operation in one run. Every walk is bounded by the operation's page budget.
 */
import type { ApiCallOptions, TargetClient } from '../../src/client/types.js';
import type { HttpResponse } from '../../src/client/types.js';
import type { PlannedOperation } from '../../src/openapi/types.js';
import { operationKey, operationRef } from '../../src/openapi/operation.js';
import { OPERATION_BUDGET } from '../../src/engine/operation-keys.js';
import { expectJsonObject, expectStatus, fail, jsonType } from './expect.js';

/** A planned operation of the run (src/openapi: its path parameters filled, a search's base body). */
export type SuiteOperation = PlannedOperation;

export interface PageAsk {
  /** Left out when undefined; a string is sent as it is (in a body: as a JSON string). */
  pageSize?: number | string;
  pageToken?: string;
  /** The body's page-size property (default the description's spelling). */
  sizeField?: string;
}

/** The body's page-size and page-token names: the description's, else service.md's. */
export function bodyNames(op: SuiteOperation): { pageSize: string; pageToken: string } {
  return op.bodyFields ?? { pageSize: 'page_size', pageToken: 'page_token' };
}

/**
 * Sends one page request of `op` through the client's firewall (ruling 35): the client fills the template,
 * each parameter one encoded segment, and sends only a GET or a POST to a read of the run's plan.
 */
export function requestPage(client: TargetClient, op: SuiteOperation, ask: PageAsk, options: ApiCallOptions & { label: string }): Promise<HttpResponse> {
  const operation = { ...operationRef(op), params: op.params ?? {} };
  if (op.paginated === 'body' || op.method.toUpperCase() === 'POST') {
    const names = bodyNames(op);
    const body: Record<string, unknown> = { ...(op.baseBody ?? {}) };
    if (ask.pageSize !== undefined) body[ask.sizeField ?? names.pageSize] = ask.pageSize;
    if (ask.pageToken !== undefined) body[names.pageToken] = ask.pageToken;
    return client.operationCall({ operation, body }, options);
  }
  const query: Array<[string, string]> = [];
  if (ask.pageSize !== undefined) query.push(['page_size', String(ask.pageSize)]);
  if (ask.pageToken !== undefined) query.push(['page_token', ask.pageToken]);
  return client.operationCall({ operation, query }, options);
}

export interface OpPage {
  number: number;
  /** The items; `list` null or absent reads as none (ruling 34 allows it on an empty page). */
  list: unknown[];
  /** As received: may be a non-string or undefined on a faulty target. */
  nextPageToken: unknown;
  body: Record<string, unknown>;
  res: HttpResponse;
}

/** One page: 200, a JSON object, its list an array (or null/absent: none). */
export async function fetchOpPage(client: TargetClient, op: SuiteOperation, ask: PageAsk, what: string, options: ApiCallOptions = {}): Promise<OpPage> {
  const res = await requestPage(client, op, ask, { ...options, label: what });
  expectStatus(res, 200, what);
  const body = expectJsonObject(res, what);
  const property = op.listProperty ?? 'list';
  const list = body[property];
  if (list !== undefined && list !== null && !Array.isArray(list)) fail(`${what}: ${property} is not an array`, 'an array', jsonType(list));
  return { number: 1, list: (list as unknown[] | null | undefined) ?? [], nextPageToken: body.nextPageToken, body, res };
}

/** Identity of an item: the id inside its wrapper, or its own id, else its canonical JSON. */
export function opItemKey(op: SuiteOperation, item: unknown): string {
  const inner = op.itemWrapper && typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[op.itemWrapper] : item;
  if (typeof inner === 'object' && inner !== null) {
    const id = (inner as Record<string, unknown>).id;
    if (typeof id === 'string' && id !== '') return `id:${id}`;
  }
  return `json:${canonical(item)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export interface OpWalk {
  pages: OpPage[];
  /** True when a page carried "" (or no string token) within the budget. */
  ended: boolean;
  /** Why the walk stopped early: a repeated token, the budget. */
  stopped?: string;
}

/** Follows nextPageToken while it is a non-empty string, at most `maxPages` pages; never loops on a repeated token. */
export async function walkOp(client: TargetClient, op: SuiteOperation, pageSize: number | undefined, maxPages: number, what: string): Promise<OpWalk> {
  const pages: OpPage[] = [];
  const seen = new Set<string>();
  let token: string | undefined;
  for (;;) {
    const number = pages.length + 1;
    const page = { ...(await fetchOpPage(client, op, { pageSize, pageToken: token }, `${what}, page ${number}`)), number };
    pages.push(page);
    const next = page.nextPageToken;
    if (typeof next !== 'string' || next === '') return { pages, ended: true };
    if (seen.has(next)) return { pages, ended: false, stopped: `page ${number} repeats an earlier nextPageToken (the walk would loop)` };
    if (number >= maxPages) return { pages, ended: false, stopped: `still not at the end after ${number} pages (the operation's page budget)` };
    seen.add(next);
    token = next;
  }
}

/** What the counting walk at page size 100 learned. */
export interface Census {
  /** Distinct items, when the walk ended within the budget. */
  total?: number;
  /** Distinct items seen (a lower bound when the walk did not end). */
  atLeast: number;
  /** The items in walk order (first occurrence), for the checks that compare pages. */
  keys: string[];
  /** Why there is no total. */
  why?: string;
}

const censuses = new Map<string, Promise<Census>>();

/**
 * The operation's total, learned once per run by walking at page size 100 in the description's spelling
 * (bounded by the census budget); concurrent checks of one operation share the walk.
 */
export function census(client: TargetClient, runId: string, op: SuiteOperation): Promise<Census> {
  const key = `${runId}\n${operationKey('census', op)}`;
  let known = censuses.get(key);
  if (known === undefined) {
    if (censuses.size > 64) censuses.clear();
    known = (async (): Promise<Census> => {
      try {
        const walk = await walkOp(client, op, 100, OPERATION_BUDGET.censusPages, `counting walk of ${op.method} ${op.path} at page size 100`);
        const keys = [...new Set(walk.pages.flatMap((page) => page.list.map((item) => opItemKey(op, item))))];
        return walk.ended ? { total: keys.length, atLeast: keys.length, keys } : { atLeast: keys.length, keys, why: walk.stopped ?? 'the walk did not end' };
      } catch (error) {
        return { atLeast: 0, keys: [], why: `the counting walk at page size 100 failed: ${(error as Error).message}` };
      }
    })();
    censuses.set(key, known);
  }
  return known;
}
