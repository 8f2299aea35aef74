/**
 * Small helpers shared by the routes: response builders and request parsing that never throws.
 * Error bodies are unspecified (ruling 23); the reference answers `{"error": code, "error_description"}`
 * everywhere so humans can read them, RFC 6749 style at the token endpoint.
 */
import type { ReferenceRequest, ReferenceResponse } from './types.js';

/**
 * `then` for a handler's answer, which may already be there: `next` is called at once when it is (no
 * promise made), after the promise when not. What a wrapper uses to stay synchronous on a synchronous answer.
 */
export function onAnswer(answer: ReferenceResponse | Promise<ReferenceResponse>, next: (response: ReferenceResponse) => ReferenceResponse): ReferenceResponse | Promise<ReferenceResponse> {
  return answer instanceof Promise ? answer.then(next) : next(answer);
}

/** The Content-Type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ReferenceResponse {
  return {
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): ReferenceResponse {
  return json(status, { error, error_description: description }, headers);
}

export function methodNotAllowed(allowed: string): ReferenceResponse {
  return errorResponse(405, 'method_not_allowed', `use ${allowed}`, { allow: allowed });
}

export function notFound(what = 'no such resource'): ReferenceResponse {
  return errorResponse(404, 'not_found', what);
}

export function payloadTooLarge(limit: number): ReferenceResponse {
  // The rest of the body was not read: the adapter closes the connection after answering.
  return errorResponse(413, 'payload_too_large', `the body is larger than ${limit} bytes`, { connection: 'close' });
}

export interface ParsedTarget {
  /** The raw (still percent-encoded) path, with its leading slash. */
  path: string;
  /** Raw (still percent-encoded) path segments after the leading slash. */
  segments: string[];
  query: URLSearchParams;
  /** The raw query text without `?` ("" when none). */
  rawQuery: string;
}

/**
 * The raw path and query of an origin-form (`/a/b?x`) or absolute-form (`http://h/a/b?x`) target.
 * Undefined for anything else (`*`, garbage), which the router answers with 400.
 */
function splitTarget(url: string): { path: string; rawQuery: string } | undefined {
  let pathAndQuery = url;
  if (!url.startsWith('/')) {
    if (!/^https?:\/\//i.test(url)) return undefined;
    try {
      const absolute = new URL(url);
      pathAndQuery = absolute.pathname + absolute.search;
    } catch {
      return undefined;
    }
  }
  const hash = pathAndQuery.indexOf('#');
  if (hash >= 0) pathAndQuery = pathAndQuery.slice(0, hash);
  const question = pathAndQuery.indexOf('?');
  return question >= 0
    ? { path: pathAndQuery.slice(0, question), rawQuery: pathAndQuery.slice(question + 1) }
    : { path: pathAndQuery, rawQuery: '' };
}

/** The raw path of a request target (see {@link parseTarget}), without splitting it or parsing the query. */
export function targetPath(url: string): string | undefined {
  return splitTarget(url)?.path;
}

/** A request target split into path segments and query; undefined when it is not a path (see splitTarget). */
export function parseTarget(url: string): ParsedTarget | undefined {
  const target = splitTarget(url);
  if (target === undefined) return undefined;
  const { path, rawQuery } = target;
  let query: URLSearchParams | undefined;
  // Parsed when a route reads it (the listings), not for every webhook.
  return {
    path,
    segments: path.split('/').slice(1),
    get query(): URLSearchParams {
      return (query ??= new URLSearchParams(rawQuery));
    },
    rawQuery,
  };
}

/** decodeURIComponent that answers undefined instead of throwing on malformed escapes. */
export function decodeSegment(segment: string): string | undefined {
  // Nothing to decode (every generated listener ID): the segment as it is, which is what decoding gives.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The media type of a Content-Type header, lower-cased, parameters dropped ("" when absent). */
export function mediaType(request: ReferenceRequest): string {
  const value = request.headers['content-type'];
  if (value === undefined) return '';
  // What every webhook sender writes: answered without splitting (the same answer the split gives).
  if (value === 'application/json') return value;
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}
