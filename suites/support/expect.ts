/**
 * Small assertions shared by every suite. Each throws a ConformanceFailure(message, expected, actual) so the
 * report shows what the requirement wanted against what the target answered. The "actual" side is built
 * from the recorded (already redacted) exchange, never from the raw body, so a token or secret that the
 * target echoes back cannot leak into a report.
 */
import type { HttpResponse } from '../../src/client/types.js';
import { ConformanceFailure } from '../../src/errors.js';

/** A status, a list of accepted statuses, or a predicate (e.g. {@link isClientError}). */
export type StatusExpectation = number | readonly number[] | ((status: number) => boolean);

/** Characters of a response body shown in a failure. */
const BODY_PREVIEW_CHARS = 200;

/** Any 4xx. */
export const isClientError = (status: number): boolean => status >= 400 && status <= 499;

/**
 * A refusal check's own control request (the accepted form of the same request, sent and asserted before
 * the refusal) was not accepted: the check cannot conclude and is reported blocked, not failed (ruling 30).
 */
export class ControlNotAccepted extends ConformanceFailure {
  readonly controlNotAccepted = true;
}

export function isControlNotAccepted(value: unknown): value is ControlNotAccepted {
  return value instanceof ControlNotAccepted || (typeof value === 'object' && value !== null && (value as { controlNotAccepted?: unknown }).controlNotAccepted === true);
}

/** Throws a ConformanceFailure; `never` so callers can use it in expressions. */
export function fail(message: string, expected: string, actual: string): never {
  throw new ConformanceFailure(message, expected, actual);
}

/** One line describing a response for the "actual" side: status, content type and a redacted body preview. */
export function describeResponse(res: HttpResponse): string {
  const recorded = res.exchange.response;
  const type = res.headers['content-type'];
  const body = recorded?.body ?? '';
  const preview = body.length > BODY_PREVIEW_CHARS ? `${body.slice(0, BODY_PREVIEW_CHARS)}…` : body;
  return `${res.status}${type ? ` (${type})` : ''}${preview ? ` ${preview}` : ''}`;
}

function describeExpectation(expected: StatusExpectation): string {
  if (typeof expected === 'number') return `status ${expected}`;
  if (typeof expected === 'function') return expected === isClientError ? 'a 4xx status' : 'an accepted status';
  return `status ${expected.join(' or ')}`;
}

function statusMatches(status: number, expected: StatusExpectation): boolean {
  if (typeof expected === 'number') return status === expected;
  if (typeof expected === 'function') return expected(status);
  return expected.includes(status);
}

/**
 * The response's status matches. `what` names the request in the message ("token request with exp in the
 * past"); `expectedText` overrides the generated description of a predicate.
 */
export function expectStatus(res: HttpResponse, expected: StatusExpectation, what: string, expectedText?: string): void {
  if (statusMatches(res.status, expected)) return;
  const wanted = expectedText ?? describeExpectation(expected);
  fail(`${what}: got status ${res.status}, expected ${wanted}`, wanted, describeResponse(res));
}

/** The media type of Content-Type (lower-cased, without parameters), or '' when absent. */
export function mediaType(res: HttpResponse): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Content-Type is application/json or a +json type. */
export function expectJsonContentType(res: HttpResponse, what: string): void {
  const type = mediaType(res);
  if (type === 'application/json' || type.endsWith('+json')) return;
  fail(`${what}: Content-Type is not JSON`, 'Content-Type: application/json', type || '(no Content-Type)');
}

/** The body parses as a JSON object (not an array, not null); returns it. */
export function expectJsonObject(res: HttpResponse, what: string): Record<string, unknown> {
  const value = res.json();
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  const actual = value === undefined ? `not JSON: ${describeResponse(res)}` : `JSON ${Array.isArray(value) ? 'array' : String(value === null ? 'null' : typeof value)}`;
  return fail(`${what}: body is not a JSON object`, 'a JSON object', actual);
}

/** The field is present on the object (which may still hold null). */
export function expectField(obj: Record<string, unknown>, field: string, what: string): unknown {
  if (Object.prototype.hasOwnProperty.call(obj, field)) return obj[field];
  return fail(`${what}: field \`${field}\` is missing`, `a \`${field}\` field`, `keys: ${Object.keys(obj).join(', ') || '(none)'}`);
}

/** The JSON type of a value as a report shows it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The body carries no `access_token` (a refusal must not hand out a token, whatever its status). */
export function expectNoAccessToken(res: HttpResponse, what: string): void {
  const body = res.json();
  if (typeof body === 'object' && body !== null && 'access_token' in body) {
    fail(`${what}: the refusal still carries an access_token`, 'no access_token in the body', 'an access_token field (redacted)');
  }
}

/** A token-endpoint refusal (rulings 5 and 7): any 4xx and no access_token. */
export function expectTokenRefusal(res: HttpResponse, what: string): void {
  expectStatus(res, isClientError, what);
  expectNoAccessToken(res, what);
}

/** A header is present and its value matches. Header names are lower-cased by the client. */
export function expectHeader(res: HttpResponse, name: string, matches: RegExp | ((value: string) => boolean), what: string, expectedText: string): string {
  const value = res.headers[name.toLowerCase()];
  const ok = value !== undefined && (typeof matches === 'function' ? matches(value) : matches.test(value));
  if (ok) return value;
  return fail(`${what}: ${name} is ${value === undefined ? 'missing' : 'not as expected'}`, expectedText, value === undefined ? `(no ${name} header)` : `${name}: ${value}`);
}

/** A generic condition: fails with the given expected/actual when false. */
export function expectThat(condition: boolean, message: string, expected: string, actual: string): asserts condition {
  if (!condition) fail(message, expected, actual);
}
