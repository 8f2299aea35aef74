/**
 * The pieces behind the run's limits, without a CLI: one value grammar with real ranges, the give-up
 * counter, the default deadline, and a client whose 429 waits stay inside the cap and the request timeout.
 */
import { describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import type { RequestOutcome } from '../../src/client/types.js';
import { MAX_TIMER_MS, parseBoolean, parseDuration, parseInteger, parseList, parseRate, parseSize } from '../../src/values.js';
import { defaultMaxDurationMs } from '../../src/engine/limits.js';
import { RunGuard } from '../../src/engine/run-guard.js';
import { openStop } from '../../src/stop/source.js';
import { fixtureProfile } from '../load/support/fixtures.js';
import { hostileServer } from './support.js';

describe('src/cli/values.ts', () => {
  it('durations: a unit is required everywhere, 0 only where it means off, real ranges', () => {
    expect(parseDuration('1500ms', { flag: '--timeout' })).toBe(1500);
    expect(parseDuration('90s', { flag: '--max-duration' })).toBe(90_000);
    expect(parseDuration('1m30s', { flag: '--max-duration' })).toBe(90_000);
    expect(parseDuration('1h', { flag: '--x' })).toBe(3_600_000);
    expect(() => parseDuration('30', { flag: '--timeout' })).toThrow('--timeout 30: add a unit, e.g. 30s or 30ms');
    expect(() => parseDuration('120000', { flag: '--max-duration' })).toThrow(expect.objectContaining({ code: 'USAGE', field: '--max-duration' }));
    expect(() => parseDuration(`${MAX_TIMER_MS + 1}ms`, { flag: '--timeout' })).toThrow(/--timeout must be at most/);
    expect(() => parseDuration('0', { flag: '--timeout' })).toThrow(/more than zero/);
    expect(() => parseDuration('0s', { flag: '--timeout' })).toThrow(/more than zero/);
    expect(parseDuration('0', { flag: '--cap', zeroMeansOff: true })).toBe(0);
    expect(parseDuration('0s', { flag: '--cap', zeroMeansOff: true })).toBe(0);
    expect(() => parseDuration('-5s', { flag: '--timeout' })).toThrow(/not a duration/);
    expect(() => parseDuration('soon', { flag: '--timeout', code: 'LOAD_CONFIG' })).toThrow(expect.objectContaining({ code: 'LOAD_CONFIG', field: '--timeout' }));
  });

  it('booleans: true/false, 1/0, yes/no, on/off in any case; anything else names the flag', () => {
    for (const word of ['true', 'TRUE', '1', 'yes', 'Yes', 'on', 'ON']) expect(parseBoolean(word, { flag: '--strict' })).toBe(true);
    for (const word of ['false', 'False', '0', 'no', 'NO', 'off', 'Off']) expect(parseBoolean(word, { flag: '--strict' })).toBe(false);
    expect(() => parseBoolean('maybe', { flag: '--strict' })).toThrow(expect.objectContaining({ code: 'USAGE', field: '--strict' }));
    expect(() => parseBoolean('', { flag: 'ACCESS_CONFORMANCE_STRICT' })).toThrow(/ACCESS_CONFORMANCE_STRICT takes true\/false, 1\/0, yes\/no or on\/off/);
  });

  it('rates, sizes, integers and lists', () => {
    expect(parseRate('20/s', { flag: '--rate-limit' })).toBe(20);
    expect(parseRate(5, { flag: '--rate-limit' })).toBe(5);
    expect(() => parseRate('0', { flag: '--rate-limit' })).toThrow(/positive/);
    expect(() => parseRate('2000000', { flag: '--rate-limit' })).toThrow(/at most/);
    expect(parseSize('64kb', { flag: '--max', maxBytes: 1 << 20 })).toBe(65_536);
    expect(parseSize('5mb', { flag: '--max', maxBytes: 10 << 20 })).toBe(5 << 20);
    expect(() => parseSize('2gb', { flag: '--max', maxBytes: 1 << 20 })).toThrow(/between 1 and/);
    expect(parseInteger('7', { flag: '--n', min: 0, max: 9 })).toBe(7);
    expect(() => parseInteger('1.5', { flag: '--n', min: 0, max: 9 })).toThrow(/whole number from 0 to 9/);
    expect(parseList(['a,b', ' c ', ''])).toEqual(['a', 'b', 'c']);
  });
});

describe('the run guard', () => {
  it('gives up after N failures in a row; an answer resets the streak; other codes are neutral', () => {
    const guard = new RunGuard(3);
    const fail = (code: string): RequestOutcome => ({ ok: false, code, message: `${code} happened` });
    guard.outcome(fail('TIMEOUT'));
    guard.outcome(fail('TIMEOUT'));
    guard.outcome({ ok: true });
    guard.outcome(fail('TIMEOUT'));
    guard.outcome(fail('RESPONSE_TOO_LARGE'));
    guard.outcome(fail('CONNECTION_RESET'));
    expect(guard.signal.aborted).toBe(false);
    guard.outcome(fail('RATE_LIMITED'));
    expect(guard.signal.aborted).toBe(true);
    expect(guard.reason?.code).toBe('RATE_LIMITED');
    expect(guard.reason?.message).toMatch(/3 requests in a row were refused by the target's rate limit/);
  });

  it('0 never gives up; the first reason wins', () => {
    const guard = new RunGuard(0);
    for (let i = 0; i < 100; i += 1) guard.outcome({ ok: false, code: 'TIMEOUT', message: 'x' });
    expect(guard.signal.aborted).toBe(false);
    guard.abort({ code: 'INTERRUPTED', message: 'first', signal: 'SIGTERM' });
    guard.abort({ code: 'DEADLINE', message: 'second' });
    expect(guard.reason).toEqual({ code: 'INTERRUPTED', message: 'first', signal: 'SIGTERM' });
  });

  it("follows the caller's signal with its record (one without a record reads as interrupted); giving up does not stop the caller", () => {
    const scope = openStop();
    const guard = new RunGuard(1, scope.signal);
    scope.stop({ code: 'DEADLINE', message: 'the run reached its deadline of 5 s (--max-duration) in phase "checks"', phase: 'checks' });
    expect(guard.reason).toMatchObject({ code: 'DEADLINE', phase: 'checks' });
    const caller = openStop();
    const library = new RunGuard(1, caller.signal);
    library.outcome({ ok: false, code: 'TIMEOUT', message: 'x' });
    expect(library.reason?.code).toBe('TIMEOUT');
    expect(caller.signal.aborted).toBe(false);
    const bare = openStop();
    const plain = new RunGuard(1, bare.signal);
    bare.stop();
    expect(plain.reason).toEqual({ code: 'INTERRUPTED', message: 'the run was interrupted' });
  });

  it('its deadline is set again from when it learns more, and stops nothing once the run ended', async () => {
    const guard = new RunGuard(0);
    guard.startDeadline(20, 1_000);
    guard.startDeadline(80, 1_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(guard.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(guard.reason).toEqual({ code: 'DEADLINE', message: 'the run reached its deadline of 1 s (--max-duration)' });
    const ended = new RunGuard(0);
    ended.startDeadline(10);
    ended.stopDeadline();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(ended.signal.aborted).toBe(false);
  });

  it('the default deadline: at most 2 min on the full catalogue plus 15 s per called operation, at least three request timeouts', () => {
    expect(defaultMaxDurationMs(198, 10_000)).toBe(120_000);
    expect(defaultMaxDurationMs(10, 10_000)).toBe(35_000);
    expect(defaultMaxDurationMs(198, 60_000)).toBe(180_000);
    // Each called operation raises the ceiling by 15 s: the real description's 53 (ruling 34), with 18
    // results each, may take 10 min, not 2.
    expect(defaultMaxDurationMs(198 + 53 * 18, 10_000, 53)).toBe(606_000);
    expect(defaultMaxDurationMs(400, 10_000, 5)).toBe(195_000);
    expect(defaultMaxDurationMs(20, 10_000, 5)).toBe(40_000);
  });
});

describe('429 Retry-After in the client', () => {
  it('a Retry-After past the cap fails at once with RATE_LIMITED; one within it is waited for', async () => {
    let calls = 0;
    const server = await hostileServer((req, res) => {
      calls += 1;
      if (req.url === '/hour') res.writeHead(429, { 'retry-after': '3600' }).end();
      else if (req.url === '/year-2100') res.writeHead(429, { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' }).end();
      else if (calls % 2 === 1) res.writeHead(429, { 'retry-after': '0.2' }).end();
      else res.writeHead(200).end('ok');
    });
    const outcomes: RequestOutcome[] = [];
    const client = createTargetClient(fixtureProfile(server.url), { timeoutMs: 2000, retryAfterCapMs: 1000, onRequestOutcome: (o) => outcomes.push(o) });
    try {
      for (const path of ['/hour', '/year-2100']) {
        const started = Date.now();
        await expect(client.request({ method: 'GET', url: path })).rejects.toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('--retry-after-cap') });
        expect(Date.now() - started).toBeLessThan(1500);
      }
      calls = 0;
      expect((await client.request({ method: 'GET', url: '/soon' })).status).toBe(200);
      expect(outcomes.map((o) => (o.ok ? 'ok' : o.code))).toEqual(['RATE_LIMITED', 'RATE_LIMITED', 'ok']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('the run guard without the run channel (workers in other processes)', () => {
  it('counts checks errored on a transport code, until a request outcome is heard', () => {
    const guard = new RunGuard(2);
    guard.checkOutcome('errored', { code: 'TIMEOUT', message: 'a' });
    guard.checkOutcome('passed', undefined);
    guard.checkOutcome('errored', { code: 'TIMEOUT', message: 'b' });
    expect(guard.signal.aborted).toBe(false);
    guard.checkOutcome('errored', { code: 'TARGET_UNREACHABLE', message: 'c' });
    expect(guard.reason?.code).toBe('TARGET_UNREACHABLE');
    const live = new RunGuard(2);
    live.outcome({ ok: true });
    live.checkOutcome('errored', { code: 'TIMEOUT', message: 'a' });
    live.checkOutcome('errored', { code: 'TIMEOUT', message: 'b' });
    expect(live.signal.aborted).toBe(false);
  });
});
