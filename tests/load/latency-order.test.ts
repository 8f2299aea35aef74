/**
 * A latency summary is ordered: p50 ≤ p90 ≤ p99 ≤ max, in each `--stream` interval, in its running totals
 * and in the report's summary (issue 39: an interval showed p99 above max). HDR gives a percentile as the
 * top of its bucket and the max as the value itself; a second whose slowest answer decides its p99 (one
 * answer, or a hundred) is where they parted.
 */
import { describe, expect, it } from 'vitest';
import { LoadStats } from '../../src/load/stats.js';
import { streamLine, type StreamLatency } from '../../src/load/stream.js';

function expectOrdered(latency: StreamLatency | { p50: number; p90: number; p99: number; max: number }, where: string): void {
  const { p50, p90, p99, max } = latency;
  expect([p50, p90, p99, max].every((v) => typeof v === 'number' && Number.isFinite(v)), where).toBe(true);
  expect(p50!, `${where}: p50 ≤ p90`).toBeLessThanOrEqual(p90!);
  expect(p90!, `${where}: p90 ≤ p99`).toBeLessThanOrEqual(p99!);
  expect(p99!, `${where}: p99 ≤ max`).toBeLessThanOrEqual(max!);
}

/** Seconds of answers whose latencies fall inside wide HDR buckets (above 2 ms, not on a bucket's top). */
const SECONDS: number[][] = [
  [10.001],
  [250.001, 3.0001],
  Array.from({ length: 100 }, (_, i) => 20 + i * 0.0173),
  Array.from({ length: 1000 }, (_, i) => 5.0007 + (i % 97) * 1.3331),
  [1234.5678, 1234.5679, 0.9, 77.777],
];

describe('latency percentiles never pass the max', () => {
  it('in every stream interval, its running totals and the run summary', () => {
    const stats = new LoadStats((status) => status === 200);
    let nowMs = 0;
    for (const [index, latencies] of SECONDS.entries()) {
      for (const ms of latencies) {
        stats.onSent(0);
        stats.onResponse(ms, 200);
      }
      nowMs += 1000;
      const row = stats.roll(nowMs, latencies.length);
      const latency = stats.latency();
      const line = streamLine({ scenario: 'webhook-hmac', row, final: index === SECONDS.length - 1, inFlight: 0, stats, latency, thresholds: [] });
      expectOrdered(line.interval.latencyMs, `second ${index + 1} interval`);
      expectOrdered(line.total.latencyMs, `second ${index + 1} total`);
      // The max is the slowest answer itself, not the top of its bucket.
      expect(line.interval.latencyMs.max).toBeCloseTo(Math.max(...latencies), 2);
    }
    const summary = stats.latency();
    expect(summary.p95).toBeLessThanOrEqual(summary.p99);
    expect(summary.p999).toBeLessThanOrEqual(summary.max);
    expectOrdered(summary, 'run summary');
    const spectrum = stats.spectrum();
    for (const [, ms] of spectrum) expect(ms).toBeLessThanOrEqual(summary.max);
  });

  it('one answer of 10.001 ms: p50, p90 and p99 are 10.001 ms, as is the max', () => {
    const stats = new LoadStats(() => true);
    stats.onSent(0);
    stats.onResponse(10.001, 200);
    const row = stats.roll(1000, 1);
    expect([row.p50, row.p90, row.p99, row.max]).toEqual([10.001, 10.001, 10.001, 10.001]);
  });
});
