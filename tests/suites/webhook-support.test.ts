/**
 * The webhook suites' own helpers can say wrong: the UUIDs they send as "not a v4" really are what they
 * claim (RFC 4122 / RFC 9562 vectors and layout), the signatures they compute themselves match the
 * client's signer, and the run and context assertions fail when they should.
 */
import { describe, expect, test } from 'vitest';
import type { HookRun, HttpResponse, RecordedExchange, TargetClient, TestHooks } from '../../src/client/types.js';
import { hmacSign } from '../../src/crypto/hmac.js';
import { isUuidV4 } from '../../src/crypto/uuid.js';
import { seededFaker } from '../../src/data/fake.js';
import { isConformanceFailure, isHarnessError } from '../../src/errors.js';
import {
  assertSent,
  expectContextEquals,
  expectExactlyOneRun,
  expectNoRun,
  firstDifference,
  statusHistogram,
} from '../../suites/support/webhook-expect.js';
import {
  freshEventId,
  nameBasedUuid,
  NIL_UUID,
  notAUuid,
  partsWithUrlSafeChars,
  uuidV1,
  uuidV3,
  uuidV4WrongVariant,
  uuidV5,
  uuidV7,
  validSignature,
} from '../../suites/support/webhook-values.js';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const version = (uuid: string): string => uuid[14]!;
const variantIsRfc4122 = (uuid: string): boolean => /[89ab]/.test(uuid[19]!);

describe('event IDs the webhook suites send', () => {
  const faker = seededFaker('unit', 'uuids');
  const now = 1_700_000_000.25;

  test('name-based UUIDs match the published vectors (Python uuid docs, DNS namespace)', () => {
    expect(nameBasedUuid(3, 'python.org')).toBe('6fa459ea-ee8a-3ca4-894e-db77e160355e');
    expect(nameBasedUuid(5, 'python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  test('each other version has its nibble and the RFC 4122 variant, and is not a v4', () => {
    for (const [want, make] of [
      ['1', () => uuidV1(faker, now)],
      ['3', () => uuidV3(faker)],
      ['5', () => uuidV5(faker)],
      ['7', () => uuidV7(faker, now)],
    ] as const) {
      for (let i = 0; i < 20; i += 1) {
        const uuid = make();
        expect(uuid).toMatch(UUID_SHAPE);
        expect(version(uuid)).toBe(want);
        expect(variantIsRfc4122(uuid)).toBe(true);
        expect(isUuidV4(uuid)).toBe(false);
      }
    }
  });

  test('v1 carries the time (100 ns since 1582) and v7 the Unix milliseconds', () => {
    const v1 = uuidV1(faker, now);
    const [low, mid, hiAndVersion] = v1.split('-') as [string, string, string];
    const ticks = (BigInt(`0x${hiAndVersion.slice(1)}`) << 48n) | (BigInt(`0x${mid}`) << 32n) | BigInt(`0x${low}`);
    expect(Number((ticks - 0x01b21dd213814000n) / 10_000n)).toBe(Math.floor(now * 1000));
    const v7 = uuidV7(faker, now).replace(/-/g, '');
    expect(parseInt(v7.slice(0, 12), 16)).toBe(Math.floor(now * 1000));
  });

  test('the wrong-variant, nil, garbage and hyphen-less IDs are all refused by a strict v4 test', () => {
    for (let i = 0; i < 50; i += 1) {
      const wrong = uuidV4WrongVariant(faker);
      expect(version(wrong)).toBe('4');
      expect(variantIsRfc4122(wrong)).toBe(false);
      expect(isUuidV4(wrong)).toBe(false);
    }
    expect(isUuidV4(NIL_UUID)).toBe(false);
    expect(isUuidV4(notAUuid(faker))).toBe(false);
    expect(isUuidV4(freshEventId().replace(/-/g, ''))).toBe(false);
  });

  test('fresh event IDs are valid v4s and differ', () => {
    const ids = new Set(Array.from({ length: 100 }, freshEventId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(isUuidV4(id)).toBe(true);
  });
});

describe('signatures the webhook suites compute', () => {
  const secret = 'q2C3e0b1Qm1lYXQtc2VjcmV0LWZvci11bml0LXRlc3Rz_-AbCdE';

  test('validSignature is the client signer over the same parts', () => {
    const parts = { timestamp: '1700000000', eventId: freshEventId(), body: '{"a":"é"}' };
    expect(validSignature(secret, parts)).toBe(hmacSign({ secret, ...parts }));
  });

  test('partsWithUrlSafeChars finds a signature whose standard-alphabet form differs', () => {
    const parts = partsWithUrlSafeChars(secret, '1700000000', '{}');
    expect(parts).toBeDefined();
    const signature = validSignature(secret, parts!);
    expect(signature.replace(/-/g, '+').replace(/_/g, '/')).not.toBe(signature);
  });
});

/** A response whose recorded request carried these headers. */
function response(status: number, headers: Record<string, string> = {}): HttpResponse {
  const exchange: RecordedExchange = {
    seq: 1,
    request: { method: 'POST', url: 'http://127.0.0.1/x', headers, bodyBytes: 0, bodyTruncated: false },
    response: { status, headers: {}, bodyBytes: 0, bodyTruncated: false },
    startedAt: 0,
    durationMs: 0,
  };
  return { status, headers: {}, body: Buffer.alloc(0), text: () => '', json: () => undefined, exchange };
}

/** A client whose runs hook answers from a list (only what the run assertions use). */
function clientWithRuns(runs: HookRun[]): TargetClient {
  const hooks: Pick<TestHooks, 'runs'> = { runs: async () => runs };
  return { hooks } as unknown as TargetClient;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('webhook assertions', () => {
  test('assertSent is a harness error (not a pass, not a target failure) when the client sent otherwise', () => {
    expect(() => assertSent(response(200, { 'Webhook-Timestamp': '1' }), 'webhook-timestamp', '1')).not.toThrow();
    expect(() => assertSent(response(200, {}), 'content-type', null)).not.toThrow();
    const error = (() => {
      try {
        assertSent(response(200, { 'content-type': 'text/plain' }), 'content-type', null);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isHarnessError(error)).toBe(true);
  });

  test('exactly one run: passes on one, fails on none and on two', async () => {
    const run = { eventId: 'e1', context: { a: 1 }, at: 1 };
    await expect(expectExactlyOneRun(clientWithRuns([run, { ...run, eventId: 'other' }]), 'l', 'e1', 'x', 0)).resolves.toEqual(run);
    expect(isConformanceFailure(await failureOf(expectExactlyOneRun(clientWithRuns([run, run]), 'l', 'e1', 'x', 0)))).toBe(true);
  });

  test('no run: passes when none shows, fails when one does', async () => {
    await expect(expectNoRun(clientWithRuns([{ eventId: 'other', context: null, at: 1 }]), 'l', 'e1', 'x', 0)).resolves.toBeUndefined();
    expect(isConformanceFailure(await failureOf(expectNoRun(clientWithRuns([{ eventId: 'e1', context: null, at: 1 }]), 'l', 'e1', 'x', 0)))).toBe(true);
  });

  test('context equality ignores key order, and names the first differing path', () => {
    expect(firstDifference({ a: 1, b: [1, { c: 'é' }] }, { b: [1, { c: 'é' }], a: 1 })).toBeUndefined();
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toMatch(/^\$\.a\.b\[1\]/);
    expect(firstDifference({ a: 1 }, { a: 1, extra: true })).toBe('$.extra: unexpected key');
    expect(firstDifference({ a: null }, {})).toBe('$.a: missing');
    expect(() => expectContextEquals({ eventId: 'e', context: { n: '?' }, at: 0 }, { n: 'é' }, 'x')).toThrow(/\$\.n/);
  });

  test('status histogram counts each status', () => {
    expect(statusHistogram([response(409), response(200), response(409)])).toBe('200×1, 409×2');
  });
});
