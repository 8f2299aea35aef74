/**
 * The live metrics' pieces on their own: the HOST:PORT grammar of --metrics-listen, and the registry
 * reading the driver's tallies (counters restated from LoadStats at scrape time, the histogram fed by the
 * stats' latency tap).
 */
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { LoadMetrics } from '../../src/load/metrics.js';
import { LoadStats } from '../../src/load/stats.js';
import { parseListenAddress } from '../../src/values.js';

const flag = { flag: '--metrics-listen' };

describe('parseListenAddress', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
    ['[::]:0', { host: '::', port: 0 }],
    [' metrics.internal:65535 ', { host: 'metrics.internal', port: 65535 }],
  ])('%s', (text, expected) => {
    expect(parseListenAddress(text, flag)).toEqual(expected);
  });

  it.each([['9464'], [':9464'], ['127.0.0.1'], ['127.0.0.1:'], ['127.0.0.1:65536'], ['::1:9464'], ['[127.0.0.1]:80'], ['host:80/x'], ['a b:1'], ['127.0.0.1:-1']])('refuses %s', (text) => {
    let thrown: unknown;
    try {
      parseListenAddress(text, { flag: '--metrics-listen', code: 'LOAD_CONFIG' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HarnessError);
    expect((thrown as HarnessError).code).toBe('LOAD_CONFIG');
    expect((thrown as HarnessError).field).toBe('--metrics-listen');
  });
});

describe('LoadMetrics', () => {
  it('restates the tallies at each scrape and histograms each recorded latency', async () => {
    const metrics = new LoadMetrics('webhook-hmac');
    const before = await metrics.text();
    expect(before).toContain('access_conformance_load_sent_total{scenario="webhook-hmac"} 0');
    const stats = new LoadStats((status) => status === 200);
    metrics.attach(stats);
    for (let i = 0; i < 3; i += 1) {
      stats.onSent(0);
      stats.onResponse(3, 200);
    }
    stats.onSent(0);
    stats.onResponse(40, 409);
    stats.onSent(0);
    stats.onFailure(30_000, 'TIMEOUT');
    stats.onSent(0);
    stats.onFailure(1, 'CONNECTION_RESET');
    stats.onSent(0);
    stats.onDropped();
    const text = await metrics.text();
    const line = (sample: string): string | undefined => text.split('\n').find((l) => l.startsWith(`${sample} `));
    expect(line('access_conformance_load_requests_total{status="200",scenario="webhook-hmac"}')).toMatch(/ 3$/);
    expect(line('access_conformance_load_requests_total{status="409",scenario="webhook-hmac"}')).toMatch(/ 1$/);
    expect(line('access_conformance_load_requests_total{status="none",scenario="webhook-hmac"}')).toMatch(/ 2$/);
    expect(line('access_conformance_load_errors_total{kind="unexpected_status",scenario="webhook-hmac"}')).toMatch(/ 1$/);
    expect(line('access_conformance_load_errors_total{kind="TIMEOUT",scenario="webhook-hmac"}')).toMatch(/ 1$/);
    expect(line('access_conformance_load_errors_total{kind="CONNECTION_RESET",scenario="webhook-hmac"}')).toMatch(/ 1$/);
    expect(line('access_conformance_load_sent_total{scenario="webhook-hmac"}')).toMatch(/ 7$/);
    expect(line('access_conformance_load_dropped_total{scenario="webhook-hmac"}')).toMatch(/ 1$/);
    // One sent and never answered.
    expect(line('access_conformance_load_in_flight{scenario="webhook-hmac"}')).toMatch(/ 1$/);
    // Latencies recorded: three of 3 ms, one of 40 ms and the 30 s timeout; not the fast reset.
    expect(line('access_conformance_load_request_duration_seconds_count{scenario="webhook-hmac"}')).toMatch(/ 5$/);
    expect(line('access_conformance_load_request_duration_seconds_bucket{le="0.005",scenario="webhook-hmac"}')).toMatch(/ 3$/);
    expect(line('access_conformance_load_request_duration_seconds_bucket{le="0.05",scenario="webhook-hmac"}')).toMatch(/ 4$/);
    expect(line('access_conformance_load_request_duration_seconds_bucket{le="20",scenario="webhook-hmac"}')).toMatch(/ 4$/);
    expect(line('access_conformance_load_request_duration_seconds_bucket{le="30",scenario="webhook-hmac"}')).toMatch(/ 5$/);
    // A second scrape restates (never adds twice).
    expect(await metrics.text()).toContain('access_conformance_load_sent_total{scenario="webhook-hmac"} 7');
  });
});
