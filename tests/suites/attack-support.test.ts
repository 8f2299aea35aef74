/**
 * The attack suites' helpers on their own: the lossless JSON reader (each case shows it can say "differs"
 * where JSON.parse cannot), bodies sized in bytes, bounded concurrency, forwarding headers.
 */
import { describe, expect, test } from 'vitest';
import { seededFaker } from '../../src/data/fake.js';
import { forwardedClient } from '../../src/faults/support/forwarding.js';
import type { ReferenceRequest } from '../../src/reference/types.js';
import { bodyWithBytes, multiByteBody, uuidV4WithVariant } from '../../suites/support/attack-values.js';
import { boundedAll } from '../../suites/support/bounded.js';
import { forwardingHeader, spoofedAddress } from '../../suites/support/forwarding.js';
import { canonicalNumber, JsonNumber, losslessDifference, parseLossless, showLossless } from '../../suites/support/lossless-json.js';

describe('lossless JSON', () => {
  test('keeps numbers as text, decodes strings, keeps key order, last duplicate wins', () => {
    const value = parseLossless(' {"a":9007199254740993,"s":"\\/\\u00e9\\ud83d\\ude00","l":[-0,true,null],"a":1e400} ');
    expect(value).toBeInstanceOf(Map);
    const map = value as Map<string, unknown>;
    expect((map.get('a') as JsonNumber).text).toBe('1e400');
    expect(map.get('s')).toBe('/é😀');
    expect(showLossless(map.get('l') as never)).toBe('[-0,true,null]');
  });

  test.each(['', '{', '{}x', '{} {}', '[1,]', '{"a":01}', '"\u0001"', '"\\x"', '1.', 'nul', '{"a" 1}'])('refuses %j', (text) => {
    expect(() => parseLossless(text)).toThrow(SyntaxError);
  });

  test.each([
    ['100', '1E+2', true],
    ['1.50', '1.5', true],
    ['0.001', '1e-3', true],
    ['-0', '-0.0', true],
    ['-0', '0', false],
    ['9007199254740993', '9007199254740992', false],
    ['1e400', '1e401', false],
    ['0.1000000000000000055511151231257827', '0.1', false],
  ])('%s and %s are equal: %s', (a, b, equal) => {
    expect(canonicalNumber(a) === canonicalNumber(b)).toBe(equal);
  });

  test('losslessDifference names the first path that differs, and nothing when equal', () => {
    const sent = parseLossless('{"n":[1,{"big":9007199254740993}],"s":"a\\u0000b"}');
    expect(losslessDifference(sent, parseLossless('{"s":"a\\u0000b","n":[1.0,{"big":9007199254740993}]}'))).toBeUndefined();
    expect(losslessDifference(sent, parseLossless(JSON.stringify(JSON.parse('{"n":[1,{"big":9007199254740993}],"s":"a\\u0000b"}')))))
      .toBe('$.n[1].big: expected 9007199254740993, got 9007199254740992');
    expect(losslessDifference(sent, parseLossless('{"n":[1,{"big":9007199254740993}],"s":"ab"}'))).toMatch(/^\$\.s:/);
    expect(losslessDifference(sent, parseLossless('{"n":[1],"s":"a\\u0000b"}'))).toBe('$.n: array of 2 items vs 1');
    expect(losslessDifference(sent, parseLossless('{"n":[1,{"big":9007199254740993}]}'))).toBe('$.s: missing');
    expect(losslessDifference(parseLossless('{"z":-0}'), parseLossless('{"z":0}'))).toMatch(/expected -0, got 0/);
    expect(losslessDifference(parseLossless('{"x":"1"}'), parseLossless('{"x":1}'))).toMatch(/^\$\.x:/);
  });
});

describe('attack values', () => {
  test.each([1024, 65_536, 65_537, 65_538, 100_003])('multiByteBody(%i) is valid JSON of exactly that many bytes, far fewer characters', (bytes) => {
    const body = multiByteBody(bytes);
    expect(Buffer.byteLength(body, 'utf8')).toBe(bytes);
    expect(body.length).toBeLessThan(bytes * 0.5);
    expect(() => JSON.parse(body)).not.toThrow();
  });

  test('bodyWithBytes puts the raw bytes inside a string of otherwise valid JSON', () => {
    const body = bodyWithBytes(seededFaker('s', 'x'), [0xff]);
    expect(body.includes(Buffer.from([0x61, 0x62, 0xff, 0x63, 0x64]))).toBe(true);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(body)).toThrow();
    expect(() => JSON.parse(body.toString('latin1'))).not.toThrow();
  });

  test('uuidV4WithVariant sets version 4 and exactly the variant asked for', () => {
    for (const variant of ['0', '7', 'c', 'e']) {
      expect(uuidV4WithVariant(seededFaker('s', variant), variant)).toMatch(new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-${variant}[0-9a-f]{3}-[0-9a-f]{12}$`));
    }
  });
});

describe('boundedAll', () => {
  test('runs every task once, at most `limit` at a time, results in order', async () => {
    let running = 0;
    let peak = 0;
    const results = await boundedAll(50, 4, async (i) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, i % 3));
      running -= 1;
      return i * 2;
    });
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(peak).toBe(4);
  });
});

describe('forwarding headers', () => {
  const request = (headers: Record<string, string>): ReferenceRequest =>
    ({ method: 'POST', url: '/', headers, remoteAddress: '127.0.0.1', body: Buffer.alloc(0), bodyExceeded: false }) as ReferenceRequest;

  test('the suites claim an address inside the first block, in each header\'s syntax', () => {
    expect(spoofedAddress(['203.0.113.0/24', '2001:db8::/32'])).toBe('203.0.113.1');
    expect(forwardingHeader('X-Forwarded-For', '203.0.113.1')).toEqual({ 'X-Forwarded-For': '203.0.113.1' });
    expect(forwardingHeader('Forwarded', '203.0.113.1')).toEqual({ Forwarded: 'for=203.0.113.1' });
    expect(forwardingHeader('Forwarded', '2001:db8::1')).toEqual({ Forwarded: 'for="[2001:db8::1]"' });
    expect(() => spoofedAddress(undefined)).toThrow(/allowedCidrs/);
  });

  test('faults read back what the suites send (first X-Forwarded-For entry, Forwarded for=, X-Real-IP)', () => {
    expect(forwardedClient(request({ 'x-forwarded-for': '203.0.113.1, 10.0.0.1' }), 'x-forwarded-for')).toBe('203.0.113.1');
    expect(forwardedClient(request({ forwarded: 'for=203.0.113.1;proto=https' }), 'forwarded')).toBe('203.0.113.1');
    expect(forwardedClient(request({ forwarded: 'proto=http; for="[2001:db8::1]"' }), 'forwarded')).toBe('2001:db8::1');
    expect(forwardedClient(request({ 'x-real-ip': ' 203.0.113.1 ' }), 'x-real-ip')).toBe('203.0.113.1');
    expect(forwardedClient(request({}), 'x-real-ip')).toBeUndefined();
  });
});
