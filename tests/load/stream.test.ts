/**
 * The per-second checks, before the CLI: `--stream` lines from the tallies (a second with no answer has
 * latency null, never 0; a transport failure; a threshold with no data), each valid against
 * schemas/load-stream.schema.json; and the thresholds that abort (`:abort`, --abort-on-fail, the grace).
 */
import { describe, expect, it } from 'vitest';
import { thresholdWatch } from '../../src/load/abort.js';
import { LoadStats } from '../../src/load/stats.js';
import { streamLine } from '../../src/load/stream.js';
import { evaluateThresholds, parseThreshold } from '../../src/load/thresholds.js';
import { thresholdValues } from '../../src/load/report.js';
import { schemaValidator } from '../reporters/validators.js';

function line(stats: LoadStats, elapsedMs: number, final = false) {
  const row = stats.roll(elapsedMs, 10);
  const latency = stats.latency();
  const thresholds = evaluateThresholds([parseThreshold('p99<50ms'), parseThreshold('errors<1%')], thresholdValues(stats, latency, elapsedMs));
  return streamLine({ scenario: 'webhook-hmac', row, final, inFlight: 2, stats, latency, thresholds });
}

describe('streamLine', () => {
  it('writes null, not 0, for the latency of a second with no answer, and validates', async () => {
    const validate = await schemaValidator('load-stream.schema.json');
    const stats = new LoadStats((status) => status === 200);
    stats.onSent(0);
    stats.onSent(0);
    const quiet = line(stats, 1000);
    expect(validate(quiet)).toEqual([]);
    expect(quiet.interval.latencyMs).toEqual({ p50: null, p90: null, p99: null, max: null });
    expect(quiet.total.latencyMs.p99).toBeNull();
    expect(quiet.thresholds).toEqual([
      { expression: 'p99<50ms', ok: false, actual: null },
      { expression: 'errors<1%', ok: false, actual: null },
    ]);

    stats.onResponse(12, 200);
    stats.onFailure(3, 'CONNECTION_RESET');
    const busy = line(stats, 2000, true);
    expect(validate(busy)).toEqual([]);
    expect(busy).toMatchObject({ t: 2, seconds: 1, final: true, interval: { sent: 0, completed: 2, errors: 1 } });
    expect(busy.interval.latencyMs.p99).toBeCloseTo(12, 1);
    expect(busy.total).toMatchObject({ sent: 2, completed: 2, errors: 1, inFlight: 2, statuses: { '200': 1 }, failures: { CONNECTION_RESET: 1 } });
    expect(busy.thresholds[0]).toMatchObject({ ok: true });
    expect(busy.thresholds[1]).toMatchObject({ ok: false, actual: 0.5 });
  });
});

describe('thresholds that abort', () => {
  it('parse :abort, refuse it on rate, and watch only past the grace period', () => {
    expect(parseThreshold('p99<50ms:abort')).toMatchObject({ metric: 'p99', limit: 50, abort: true, expression: 'p99<50ms:abort' });
    expect(parseThreshold('errors < 1% : ABORT')).toMatchObject({ metric: 'errors', limit: 0.01, abort: true });
    expect(parseThreshold('p99<50ms')).toMatchObject({ abort: false });
    expect(() => parseThreshold('rate>=10:abort')).toThrow(/cannot abort/);
    expect(() => parseThreshold('p99<50ms:stop')).toThrow(/not of the form/);

    const thresholds = [parseThreshold('p99<50ms'), parseThreshold('errors<1%:abort'), parseThreshold('rate>=100')];
    const crossed = (expression: string) => thresholds.map((t) => ({ ...t, actual: 1, ok: t.expression !== expression }));
    let stops = 0;
    const one = thresholdWatch(thresholds, { all: false, graceMs: 5000 }, () => (stops += 1));
    one.check(crossed('p99<50ms'), 6000);
    expect(stops).toBe(0);
    one.check(crossed('errors<1%:abort'), 4999);
    expect(stops).toBe(0);
    one.check(crossed('errors<1%:abort'), 5000);
    one.check(crossed('errors<1%:abort'), 6000);
    expect(stops).toBe(1);
    expect(one.crossing()).toEqual({ threshold: 'errors<1%:abort', actual: 1, atSeconds: 5, graceSeconds: 5 });

    const all = thresholdWatch(thresholds, { all: true, graceMs: 0 }, () => (stops += 1));
    all.check(crossed('rate>=100'), 1000);
    expect(all.crossing()).toBeUndefined();
    all.check(crossed('p99<50ms'), 1000);
    expect(all.crossing()?.threshold).toBe('p99<50ms');
  });
});
