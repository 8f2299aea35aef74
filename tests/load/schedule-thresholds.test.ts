/**
 * Pure parts of the driver: the open-model arrival schedule (constant and ramped), flag parsing,
 * thresholds, and the constant-memory statistics.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSign } from '../../src/crypto/hmac.js';
import { hmacSigner } from '../../src/load/hmac-signer.js';
import { parseDurationMs, parseRate, parseStages } from '../../src/load/parse.js';
import { ArrivalSchedule } from '../../src/load/schedule.js';
import { LoadStats } from '../../src/load/stats.js';
import { evaluateThresholds, parseThreshold, type ThresholdValues } from '../../src/load/thresholds.js';

function drain(schedule: ArrivalSchedule): number[] {
  const times: number[] = [];
  for (let t = schedule.next(); t !== undefined; t = schedule.next()) times.push(t);
  return times;
}

describe('ArrivalSchedule', () => {
  it('a constant rate sends rate × duration requests at i / rate', () => {
    const times = drain(ArrivalSchedule.constant(200, 3000));
    expect(times).toHaveLength(600);
    expect(times[0]).toBe(0);
    expect(times[1]).toBeCloseTo(5, 9);
    expect(times[599]).toBeCloseTo(2995, 6);
  });

  it('a fractional total rounds up to the arrivals that fall inside the duration', () => {
    expect(drain(ArrivalSchedule.constant(3, 1500))).toEqual([0, 1000 / 3, 2000 / 3, 1000, 4000 / 3]);
  });

  it('--max-requests caps the schedule', () => {
    const schedule = ArrivalSchedule.constant(1000, 10_000, 25);
    expect(schedule.total).toBe(25);
    expect(drain(schedule)).toHaveLength(25);
  });

  it('a ramp sends the area under the rate curve, with gaps narrowing as the rate grows', () => {
    // 0 → 100/s over 2 s (100 arrivals), 100/s for 1 s (100), 100 → 0 over 1 s (50).
    const schedule = new ArrivalSchedule({ startRate: 0, stages: [{ durationMs: 2000, target: 100 }, { durationMs: 1000, target: 100 }, { durationMs: 1000, target: 0 }] });
    const times = drain(schedule);
    expect(schedule.total).toBe(250);
    expect(times).toHaveLength(250);
    // N(t) = 25 t² in the first stage: arrival i at sqrt(i / 25) s.
    expect(times[25]).toBeCloseTo(1000, 6);
    expect(times[100]).toBeCloseTo(2000, 6);
    expect(times[150]).toBeCloseTo(2500, 6);
    for (let i = 1; i < times.length; i += 1) expect(times[i]).toBeGreaterThan(times[i - 1]);
    expect(times[249]).toBeLessThan(4000);
    expect(schedule.rateAt(1000)).toBeCloseTo(50, 9);
    expect(schedule.countBetween(0, 2000)).toBeCloseTo(100, 9);
  });
});

describe('flag parsing', () => {
  it('durations, rates and stages', () => {
    expect(parseDurationMs('10s')).toBe(10_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('250ms')).toBe(250);
    // A unit is required, as in every command (a bare number once meant seconds here and ms in run).
    expect(() => parseDurationMs('2')).toThrow(/--duration 2: add a unit, e\.g\. 2s or 2ms/);
    expect(parseRate('500/s')).toBe(500);
    expect(parseStages('30s:100, 1m:500')).toEqual([
      { durationMs: 30_000, target: 100 },
      { durationMs: 60_000, target: 500 },
    ]);
  });

  it('refuses what it cannot read, naming the flag', () => {
    expect(() => parseDurationMs('ten seconds')).toThrow(/not a duration/);
    expect(() => parseDurationMs('0s')).toThrow(/more than zero/);
    expect(() => parseRate('-3')).toThrow(/not a rate/);
    expect(() => parseStages('30s')).toThrow(/not a stage/);
    let caught: unknown;
    try {
      parseRate('fast');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'LOAD_CONFIG', field: '--rate' });
  });
});

describe('thresholds', () => {
  const values: ThresholdValues = {
    p50: 2,
    p90: 8,
    p95: 12,
    p99: 40,
    'p99.9': 90,
    max: 120,
    mean: 3,
    errors: 0.0005,
    rate: 498,
    dropped: 0,
    behind: 0.02,
  };

  it('parses units: ms, s, us, %, /s', () => {
    expect(parseThreshold('p99<50ms')).toMatchObject({ metric: 'p99', op: '<', limit: 50 });
    expect(parseThreshold('max<=1s')).toMatchObject({ metric: 'max', op: '<=', limit: 1000 });
    expect(parseThreshold('p50<500us')).toMatchObject({ metric: 'p50', limit: 0.5 });
    expect(parseThreshold('p99.9<200')).toMatchObject({ metric: 'p99.9', limit: 200 });
    expect(parseThreshold('errors<0.1%')).toMatchObject({ metric: 'errors', limit: 0.001 });
    expect(parseThreshold('errors<0.001').limit).toBe(0.001);
    expect(parseThreshold('rate>=450/s')).toMatchObject({ metric: 'rate', op: '>=', limit: 450 });
  });

  it('evaluates like k6: held or crossed, never held without data', () => {
    const results = evaluateThresholds(['p99<50ms', 'p99<30ms', 'errors<0.1%', 'errors<0.01%', 'rate>=450', 'behind<1%'].map(parseThreshold), values);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false, true, false]);
    expect(evaluateThresholds([parseThreshold('p99<50ms')], { ...values, p99: NaN })[0].ok).toBe(false);
  });

  it('refuses nonsense with a usage error', () => {
    expect(() => parseThreshold('p99<50%')).toThrow(/latency/);
    expect(() => parseThreshold('errors<5ms')).toThrow(/share/);
    expect(() => parseThreshold('errors<150%')).toThrow(/at most 100%/);
    expect(() => parseThreshold('latency<5ms')).toThrow(/unknown metric/);
    expect(() => parseThreshold('p99 = 5')).toThrow(/not of the form/);
  });
});

describe('LoadStats', () => {
  it('counts statuses, failures and errors, and keeps percentiles from histograms', () => {
    const stats = new LoadStats((status) => status === 200);
    for (let i = 1; i <= 1000; i += 1) {
      stats.onSent(0);
      stats.onResponse(i / 10, i % 100 === 0 ? 409 : 200);
    }
    stats.onSent(9);
    stats.onFailure(5000, 'TIMEOUT');
    stats.onSent(0);
    stats.onFailure(1, 'TARGET_UNREACHABLE');
    stats.onDropped();
    const row = stats.roll(1000, 1003);
    expect(row).toMatchObject({ sent: 1002, completed: 1002, errors: 12, dropped: 1, asked: 1003 });
    expect(stats.statuses.get(200)).toBe(990);
    expect(stats.statuses.get(409)).toBe(10);
    expect(Object.fromEntries(stats.failures)).toEqual({ TIMEOUT: 1, TARGET_UNREACHABLE: 1 });
    expect(stats.behind).toBe(1);
    const latency = stats.latency();
    // The timeout is latency (1001 values); the refused connection is not.
    expect(latency.count).toBe(1001);
    expect(latency.p50).toBeCloseTo(50, 0);
    expect(latency.max).toBeCloseTo(5000, -1);
    expect(stats.spectrum().at(-1)?.[1]).toBeCloseTo(5000, -1);
  });

  it('keeps at most maxRows timeline rows by merging pairs (flat memory in a soak)', () => {
    const stats = new LoadStats(() => true, 8);
    for (let s = 1; s <= 40; s += 1) {
      stats.onSent(0);
      stats.onResponse(s, 200);
      stats.roll(s * 1000, 1);
    }
    expect(stats.rows.length).toBeLessThanOrEqual(8);
    expect(stats.rows.reduce((n, r) => n + r.completed, 0)).toBe(40);
    expect(stats.rows.reduce((n, r) => n + r.seconds, 0)).toBeCloseTo(40, 9);
    expect(Math.max(...stats.rows.map((r) => r.max))).toBeCloseTo(40, 0);
  });
});

describe('hmacSigner (the hot-path signer)', () => {
  it('gives exactly the signature of src/crypto hmacSign', () => {
    const secrets = [randomBytes(32).toString('base64url'), 'short', 'x'.repeat(100), 'ünïcödé-sécret'];
    for (const secret of secrets) {
      const sign = hmacSigner(secret);
      for (const size of [0, 1, 1024, 65_536]) {
        const body = randomBytes(size);
        const timestamp = String(1_700_000_000 + size);
        const eventId = randomUUID();
        expect(sign(timestamp, eventId, body)).toBe(hmacSign({ secret, timestamp, eventId, body }));
      }
    }
  });
});
