/**
 * One page of any list or search operation (service.md §4.4; rulings 9–12, 32–34): the page size and
 * token as the request gave them (query for GET, JSON body for POST), the slice, and the next token bound
 * to the listing's scope (the operation and its filters), so a token is good only for the listing that
 * issued it.
 */
import { errorResponse, json } from './http.js';
import type { PageTokenCodec } from './page-token.js';
import type { ReferenceResponse } from './types.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../spec-numbers.js';

/** What a request asked for: the size in force and the token (`''` for the first page). */
export interface PageRequest {
  size: number;
  token: string;
}

/** The request's page, or the 400 that refuses it. */
export type PageRequestOutcome = { ok: true; page: PageRequest } | { ok: false; response: ReferenceResponse };

const clamp = (value: number): number => Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, value));

const invalid = (description: string): PageRequestOutcome => ({ ok: false, response: errorResponse(400, 'invalid_request', description) });

/** page_size: absent or empty → 25; an integer is clamped to 10..100; anything else → undefined (400). */
export function parsePageSize(values: string[]): number | undefined {
  if (values.length === 0) return PAGE_SIZE_DEFAULT;
  if (values.length > 1) return undefined;
  const text = values[0] as string;
  if (text === '') return PAGE_SIZE_DEFAULT;
  return clampedPageSize(text);
}

/**
 * An integer literal (`-?\d+`, no trimming: " 10" is not one) clamped to 10..100, or undefined. Read from its
 * digits, never through a number type, so a value of any length keeps its meaning (ruling 32: 2147483648,
 * 9223372036854775808 or forty digits act as 100, never as what a fixed-width integer would wrap them to);
 * 0 and negatives act as 10 (rulings 9, 33).
 */
export function clampedPageSize(text: string): number | undefined {
  const match = /^(-?)(\d+)$/.exec(text);
  if (match === null) return undefined;
  if (match[1] === '-') return PAGE_SIZE_MIN;
  const digits = (match[2] as string).replace(/^0+(?=\d)/, '');
  if (digits.length > String(PAGE_SIZE_MAX).length) return PAGE_SIZE_MAX;
  return clamp(Number(digits));
}

/** The page a GET asked for in its query. */
export function queryPage(query: URLSearchParams): PageRequestOutcome {
  const size = parsePageSize(query.getAll('page_size'));
  if (size === undefined) return invalid('page_size must be an integer');
  const tokens = query.getAll('page_token');
  if (tokens.length > 1) return invalid('page_token is repeated');
  return { ok: true, page: { size, token: tokens[0] ?? '' } };
}

/**
 * The page a POST search asked for in its JSON body. Protobuf's JSON mapping (the real service's stack)
 * accepts a field under its JSON name (`pageSize`) and its proto name (`page_size`), an int32 as a number
 * or a decimal string, and null as absent; both names at once is a duplicate field (400).
 */
export function bodyPage(body: Record<string, unknown>): PageRequestOutcome {
  const size = oneOf(body, 'pageSize', 'page_size');
  if (size === 'both') return invalid('the page size is given as both pageSize and page_size');
  const token = oneOf(body, 'pageToken', 'page_token');
  if (token === 'both') return invalid('the page token is given as both pageToken and page_token');
  let pageSize = PAGE_SIZE_DEFAULT;
  if (size !== undefined && size !== null) {
    // A JSON number must be integral; a string must be an integer literal (protobuf's int32 string form).
    // A JSON number beyond 2^53 arrives rounded, but still integral and above 100: it clamps the same.
    const value = typeof size === 'number' ? (Number.isInteger(size) ? clamp(size) : undefined) : typeof size === 'string' ? clampedPageSize(size) : undefined;
    if (value === undefined) return invalid('pageSize must be an integer');
    pageSize = value;
  }
  if (token !== undefined && token !== null && typeof token !== 'string') return invalid('pageToken must be a string');
  return { ok: true, page: { size: pageSize, token: typeof token === 'string' ? token : '' } };
}

function oneOf(body: Record<string, unknown>, jsonName: string, protoName: string): unknown {
  const hasJson = Object.hasOwn(body, jsonName);
  const hasProto = Object.hasOwn(body, protoName);
  if (hasJson && hasProto) return 'both';
  return hasJson ? body[jsonName] : hasProto ? body[protoName] : undefined;
}

/**
 * The JSON object of a search request: an empty body is an empty request (grpc-gateway reads EOF as `{}`);
 * anything but an object is a 400.
 */
export function searchBody(body: Buffer): { ok: true; value: Record<string, unknown> } | { ok: false; response: ReferenceResponse } {
  const text = body.toString('utf8').trim();
  if (text === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(400, 'invalid_request', 'the body is not JSON') };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, response: errorResponse(400, 'invalid_request', 'the body must be a JSON object') };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * `{list, nextPageToken}` for the page of `items` the request asked for. `nextPageToken` is `""` on the page
 * that holds the last item, also when that page is exactly full (ruling 11); a token another listing (or
 * nobody) issued is a 400 (ruling 12).
 */
export function pageResponse<T>(items: readonly T[], scope: string, page: PageRequest, codec: PageTokenCodec, render: (item: T) => unknown): ReferenceResponse {
  let offset = 0;
  if (page.token !== '') {
    const decoded = codec.decode(scope, page.token);
    if (decoded === undefined || decoded > items.length) {
      return errorResponse(400, 'invalid_request', 'page_token is not a token this listing issued');
    }
    offset = decoded;
  }
  const end = Math.min(offset + page.size, items.length);
  const list = items.slice(offset, end).map(render);
  const nextPageToken = end < items.length ? codec.encode(scope, end) : '';
  return json(200, { list, nextPageToken });
}
