/**
 * Readings of `page_size` and of a page's `list` that hold for every paginated operation of the reference,
 * whatever its route (service.md §1, §4.4; ruling 34): the page size a request carries (query for GET, JSON
 * body for POST, in either spelling), rewritten before the reference reads it, and the list page a
 * response carries, rewritten after. A fault or variant built on these acts on operations added later too,
 * since it knows no route: a request under `/api/v1/` that carries no page size, or a response that is no
 * list page, passes unchanged.
 */
import { parseTarget } from '../../reference/http.js';
import type { ReferenceHandler, ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import { errorResponse, isObject, readJson, withJsonBody } from './http.js';

const API_PREFIX = ['api', 'v1'];

/** The body spellings of the page size: protobuf's JSON name, then the field name service.md writes. */
const BODY_KEYS = ['pageSize', 'page_size'] as const;

/** Where a request carries its page size, and its text as sent (a JSON number's digits, or a string). */
export interface PageSizeSlot {
  where: 'query' | 'body';
  key: string;
  text: string;
}

function isApiRequest(request: ReferenceRequest): boolean {
  const target = parseTarget(request.url);
  return target !== undefined && API_PREFIX.every((segment, index) => target.segments[index] === segment);
}

function jsonBody(request: ReferenceRequest): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(request.body.toString('utf8'));
    return isObject(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The digits of a JSON number member as written (JSON.parse rounds past 2^53; a wrap needs every digit). */
function numberText(request: ReferenceRequest, key: string, value: number): string {
  const match = new RegExp(`"${key}"\\s*:\\s*(-?\\d+)\\s*[,}]`).exec(request.body.toString('utf8'));
  return match?.[1] ?? String(value);
}

/**
 * The page size of a paginated request: the one `page_size` of a GET's query, or `pageSize`/`page_size` of a
 * POST's JSON body (a number or a string, as protobuf's JSON mapping takes both). Undefined when the request
 * carries none, repeats it, or is not an API request.
 */
export function pageSizeOf(request: ReferenceRequest): PageSizeSlot | undefined {
  if (!isApiRequest(request)) return undefined;
  if (request.method === 'GET' || request.method === 'HEAD') {
    const values = parseTarget(request.url)?.query.getAll('page_size') ?? [];
    return values.length === 1 ? { where: 'query', key: 'page_size', text: values[0]! } : undefined;
  }
  if (request.method !== 'POST') return undefined;
  const body = jsonBody(request);
  const key = BODY_KEYS.find((candidate) => body !== undefined && candidate in body);
  if (body === undefined || key === undefined) return undefined;
  const value = body[key];
  if (typeof value === 'string') return { where: 'body', key, text: value };
  if (typeof value === 'number') return { where: 'body', key, text: numberText(request, key, value) };
  return undefined;
}

/** The request with its page size replaced by `text` (a JSON number when it is a safe integer), or removed. */
export function withPageSize(request: ReferenceRequest, slot: PageSizeSlot, text: string | undefined): ReferenceRequest {
  if (slot.where === 'query') {
    const question = request.url.indexOf('?');
    const path = question >= 0 ? request.url.slice(0, question) : request.url;
    const query = new URLSearchParams(question >= 0 ? request.url.slice(question + 1) : '');
    if (text === undefined) query.delete(slot.key);
    else query.set(slot.key, text);
    const rest = query.toString();
    return { ...request, url: rest === '' ? path : `${path}?${rest}` };
  }
  const body = { ...jsonBody(request) };
  if (text === undefined) delete body[slot.key];
  else body[slot.key] = /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
  return { ...request, body: Buffer.from(JSON.stringify(body), 'utf8') };
}

/** What a stack makes of the page size it was sent: another text, none (the field left unset), or a refusal. */
export type PageSizeReading = { text: string | undefined } | { refuse: number };

/**
 * A handler that reads every paginated request's page size as `read` says before the reference sees it:
 * the stack's own parser or integer type, in front of the reference's clamping.
 */
export function readingPageSize(handler: ReferenceHandler, read: (text: string) => PageSizeReading) {
  return async (request: ReferenceRequest): Promise<ReferenceResponse> => {
    const slot = pageSizeOf(request);
    if (slot === undefined) return handler(request);
    const reading = read(slot.text);
    if ('refuse' in reading) return errorResponse(reading.refuse, 'invalid_request', 'page_size is not an integer');
    return handler(reading.text === slot.text ? request : withPageSize(request, slot, reading.text));
  };
}

/** A list page: a JSON object holding `list` and `nextPageToken` (§2.4), as every paginated operation answers. */
export interface ListPage extends Record<string, unknown> {
  list: unknown;
  nextPageToken: unknown;
}

/**
 * A handler whose list pages (200, a JSON object with `list` and `nextPageToken`, on any API route) are
 * rewritten by `edit`; every other answer passes unchanged.
 */
export function renderingListPages(handler: ReferenceHandler, edit: (page: ListPage) => Record<string, unknown>) {
  return async (request: ReferenceRequest): Promise<ReferenceResponse> => {
    const response = await handler(request);
    if (response.status !== 200 || !isApiRequest(request)) return response;
    const body = readJson(response);
    if (!isObject(body) || !('list' in body) || !('nextPageToken' in body)) return response;
    return withJsonBody(response, edit(body as ListPage));
  };
}
