/**
 * The suites' support helpers on their own: the credential-format reading of the spec (whose MUST checks
 * the profile loader usually pre-empts, so a run rarely shows them failing), the assertions of expect.ts,
 * and the page bookkeeping. Each case shows a helper can say "wrong", not only "right".
 */
import { describe, expect, test } from 'vitest';
import type { HttpResponse } from '../../src/client/types.js';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { isConformanceFailure } from '../../src/errors.js';
import {
  decodeJwk,
  deriveAddresses,
  ed25519PublicX,
  hostnameProblem,
  isBase64UrlNoPad,
  parseClientId,
  splitSecret,
  urlProblem,
} from '../../suites/support/credential-format.js';
import { expectJsonObject, expectNoAccessToken, expectStatus, expectTokenRefusal, isClientError } from '../../suites/support/expect.js';
import { describeToken, expectEveryItemOnce, itemKey, type Page } from '../../suites/support/pages.js';

function response(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): HttpResponse {
  const buffer = Buffer.from(body);
  return {
    status,
    headers,
    body: buffer,
    text: () => body,
    json: () => {
      try {
        return JSON.parse(body) as unknown;
      } catch {
        return undefined;
      }
    },
    exchange: {
      seq: 1,
      request: { method: 'GET', url: 'http://127.0.0.1/x', headers: {}, bodyBytes: 0, bodyTruncated: false },
      response: { status, headers, body: '[REDACTED BODY]', bodyBytes: buffer.length, bodyTruncated: false },
      startedAt: 0,
      durationMs: 0,
    },
  };
}

function failureOf(run: () => void): { message: string; expected: string; actual: string } {
  try {
    run();
  } catch (error) {
    if (isConformanceFailure(error)) return { message: error.message, expected: error.expected, actual: error.actual };
    throw error;
  }
  throw new Error('expected a ConformanceFailure');
}

function privateJwk(): { kty: string; crv: string; d: string; x: string } {
  return { ...newEd25519Jwk() };
}

describe('credential-format', () => {
  test('Client ID parts and hostname up to the first slash', () => {
    expect(parseClientId('brave-otter-4821@acme.example.com/conformance/x')).toEqual({
      randomId: 'brave-otter-4821',
      hostname: 'acme.example.com',
      useCase: 'conformance/x',
    });
    for (const bad of ['no-at/x', 'a@b', '@host/x', 'a@/x', 'a@host/', 'a@b@c/x', 'a b@host/x']) {
      expect(parseClientId(bad)).toHaveProperty('error');
    }
  });

  test('hostname and derived URLs', () => {
    expect(hostnameProblem('acme.example.com')).toBeUndefined();
    expect(hostnameProblem('acme.example.com:443')).toMatch(/port/);
    expect(hostnameProblem('acme..example')).toMatch(/empty label/);
    expect(hostnameProblem('-acme.example')).toMatch(/label/);
    const derived = deriveAddresses('r@acme.example.com/uc');
    expect(derived).toEqual({
      hostname: 'acme.example.com',
      tokenEndpoint: 'https://acme.example.com/auth/v1/token',
      apiRoot: 'https://acme.example.com/api/v1',
    });
    expect(urlProblem('https://acme.example.com/auth/v1/token', 'acme.example.com', '/auth/v1/token')).toBeUndefined();
    expect(urlProblem('https://acme.example.com:8443/auth/v1/token', 'acme.example.com:8443', '/auth/v1/token')).toBeDefined();
    expect(urlProblem('https://acme.example.com?x/auth/v1/token', 'acme.example.com?x', '/auth/v1/token')).toBeDefined();
  });

  test('secret segments, base64url and the JWK', () => {
    const jwk = privateJwk();
    const text = Buffer.from(JSON.stringify(jwk)).toString('base64url');
    expect(splitSecret(`secret-token:svc.example:v1:${text}`)).toEqual({ prefix: 'secret-token', serviceDomain: 'svc.example', version: 'v1', jwkText: text });
    expect(splitSecret('secret-token:svc.example:v1')).toHaveProperty('error');
    expect(splitSecret('secret-token:svc.example:8443:v1:abc')).toHaveProperty('error');
    expect(isBase64UrlNoPad(text)).toBe(true);
    expect(isBase64UrlNoPad(`${Buffer.from(JSON.stringify(jwk)).toString('base64')}==`)).toBe(false);
    expect(isBase64UrlNoPad('a+b/')).toBe(false);
    expect(decodeJwk(text)).toEqual({ ok: true, jwk });
    expect(decodeJwk(Buffer.from('[1]').toString('base64url'))).toEqual({ ok: false, error: 'decodes to JSON that is not an object' });
    expect(decodeJwk(Buffer.from('not json').toString('base64url'))).toMatchObject({ ok: false });
  });

  test('x is derived from d, so a mismatched x is detected', () => {
    const jwk = privateJwk();
    expect(ed25519PublicX(jwk.d)).toBe(jwk.x);
    expect(ed25519PublicX(jwk.d)).not.toBe(privateJwk().x);
  });
});

describe('expect helpers', () => {
  test('expectStatus accepts a number, a list and a predicate, and fails with the redacted body', () => {
    expect(() => expectStatus(response(200, '{}'), 200, 'x')).not.toThrow();
    expect(() => expectStatus(response(413, '{}'), [400, 413], 'x')).not.toThrow();
    expect(() => expectStatus(response(403, '{}'), isClientError, 'x')).not.toThrow();
    const failure = failureOf(() => expectStatus(response(200, '{"access_token":"abc"}'), isClientError, 'refusal'));
    expect(failure.expected).toBe('a 4xx status');
    expect(failure.actual).toContain('[REDACTED BODY]');
    expect(failure.actual).not.toContain('abc');
  });

  test('expectJsonObject refuses arrays, null and non-JSON', () => {
    expect(expectJsonObject(response(200, '{"a":1}'), 'x')).toEqual({ a: 1 });
    for (const body of ['[]', 'null', 'oops']) expect(failureOf(() => expectJsonObject(response(200, body), 'x')).expected).toBe('a JSON object');
  });

  test('a refusal carrying an access_token fails whatever its status', () => {
    expect(() => expectTokenRefusal(response(401, '{"error":"invalid_client"}'), 'x')).not.toThrow();
    expect(() => expectNoAccessToken(response(400, '{"access_token":"t"}'), 'x')).toThrow();
    expect(() => expectTokenRefusal(response(500, '{}'), 'x')).toThrow();
  });
});

describe('page bookkeeping', () => {
  const item = (id: string): unknown => ({ appEntitlement: { id, name: `n${id}` } });
  const page = (number: number, ids: string[], nextPageToken: unknown): Page => ({
    number,
    list: ids.map(item),
    rawList: ids.map(item),
    nextPageToken,
    res: response(200, '{}'),
  });

  test('items are keyed by appEntitlement.id, else by canonical JSON', () => {
    expect(itemKey(item('a'))).toBe('id:a');
    expect(itemKey({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe(itemKey({ a: [2, { c: 2, d: 1 }], b: 1 }));
  });

  test('a duplicate or a missing item fails the walk', () => {
    expect(() => expectEveryItemOnce([page(1, ['a', 'b'], 't'), page(2, ['c'], '')], 3, 'walk')).not.toThrow();
    expect(failureOf(() => expectEveryItemOnce([page(1, ['a', 'b'], 't'), page(2, ['b'], '')], 3, 'walk')).message).toMatch(/more than once/);
    expect(failureOf(() => expectEveryItemOnce([page(1, ['a', 'b'], '')], 3, 'walk')).message).toMatch(/returned 2 items/);
  });

  test('tokens are described without JSON noise', () => {
    expect(describeToken(undefined)).toBe('(absent)');
    expect(describeToken(null)).toBe('null');
    expect(describeToken('')).toBe('""');
    expect(describeToken(7)).toBe('integer 7');
  });
});
