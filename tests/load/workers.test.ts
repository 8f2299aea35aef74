/**
 * `load --workers` in pieces: the schedule's shares (together exactly the whole schedule, each arrival at
 * its own time), the merge of the workers' figures (tallies once, histograms exactly as one thread would
 * have recorded them), the merged stop reason, the split of the totals, and the driver-bottleneck verdict.
 * The threads themselves run from the built package: tests/load/workers.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { defaultWorkers } from '../../src/load/constants.js';
import { driverLoad } from '../../src/load/report.js';
import { describeDriver } from '../../src/load/report-text.js';
import { evenShare, usableWorkers } from '../../src/load/run-workers.js';
import { ArrivalSchedule, type ScheduleSpec } from '../../src/load/schedule.js';
import { LoadStats, percentileMs } from '../../src/load/stats.js';
import { decodeHistogram, encodeHistogram, mergedStopReason, ShareTracker, type ShippedHistogram } from '../../src/load/worker-share.js';

function offsets(schedule: ArrivalSchedule): number[] {
  const out: number[] = [];
  for (let at = schedule.next(); at !== undefined; at = schedule.next()) out.push(at);
  return out;
}

const SPECS: Array<[string, ScheduleSpec]> = [
  ['a constant rate', { startRate: 1000, stages: [{ durationMs: 2000, target: 1000 }] }],
  ['a ramp up and down', { startRate: 0, stages: [{ durationMs: 1500, target: 900 }, { durationMs: 1000, target: 900 }, { durationMs: 700, target: 10 }] }],
  ['a capped rate', { startRate: 333, stages: [{ durationMs: 3000, target: 333 }], maxRequests: 777 }],
];

describe('the schedule split over workers (k6 execution segments)', () => {
  for (const [name, spec] of SPECS) {
    it(`${name}: the shares of 2, 3 and 7 workers are together exactly the whole schedule, each arrival at its own time`, () => {
      const whole = offsets(new ArrivalSchedule(spec));
      expect(whole.length).toBe(new ArrivalSchedule(spec).total);
      for (const count of [2, 3, 7]) {
        const shares = Array.from({ length: count }, (_, index) => offsets(new ArrivalSchedule({ ...spec, segment: { index, count } })));
        // Share i holds arrivals i, i + count, …: interleaved back, it is the whole schedule, value for value.
        const merged = whole.map((_, n) => shares[n % count]![Math.floor(n / count)]);
        expect(merged).toEqual(whole);
        expect(shares.reduce((sum, share) => sum + share.length, 0)).toBe(whole.length);
        for (let index = 0; index < count; index += 1) expect(shares[index]!.length).toBe(ArrivalSchedule.shareOf(whole.length, index, count));
        // No share drifts: each share's rate is the whole rate over count (their lengths differ by one at most).
        const lengths = shares.map((share) => share.length);
        expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
      }
    });
  }
});

/** Latencies in a spread that makes percentiles of parts differ from the whole's. */
function latencies(seed: number, n: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return 0.2 + (x / 2 ** 31) ** 3 * 400;
  });
}

describe('merging the workers\' figures', () => {
  it('absorbing two workers\' shares row by row gives the tallies and the exact percentiles of one thread that saw everything', () => {
    const expected = (status: number): boolean => status === 200;
    const whole = new LoadStats(expected);
    const merged = new LoadStats(expected);
    const workers = [new LoadStats(expected), new LoadStats(expected)];
    const trackers = workers.map((stats) => new ShareTracker(stats));
    const shipped: Array<ShippedHistogram | undefined> = [undefined, undefined];
    workers.forEach((stats, i) => {
      stats.rowTap = (interval) => void (shipped[i] = interval.totalCount > 0 ? encodeHistogram(interval) : undefined);
    });
    for (let second = 0; second < 3; second += 1) {
      workers.forEach((stats, i) => {
        const values = latencies(1 + i + second * 10, 500 + 300 * i);
        values.forEach((ms, n) => {
          const status = n % 50 === 0 ? 503 : 200;
          for (const target of [stats, whole]) {
            target.onSent(n % 7);
            if (n % 97 === 0) target.onFailure(ms, 'TIMEOUT');
            else target.onResponse(ms, status);
          }
        });
        for (const target of [stats, whole]) target.onDropped();
        stats.roll(1000 * (second + 1), 0);
        merged.absorb(trackers[i]!.take(), shipped[i] === undefined ? undefined : decodeHistogram(shipped[i]!));
      });
      whole.roll(1000 * (second + 1), 0);
      merged.roll(1000 * (second + 1), 0);
    }
    for (const key of ['sent', 'completed', 'errors', 'dropped', 'behind', 'cancelled'] as const) expect(merged[key], key).toBe(whole[key]);
    expect(merged.statusCounts()).toEqual(whole.statusCounts());
    expect([...merged.failures]).toEqual([...whole.failures]);
    expect(merged.latency()).toEqual(whole.latency());
    expect(merged.spectrum()).toEqual(whole.spectrum());
    // Row by row too: each second's percentiles are the whole's, not an average of the workers'.
    expect(merged.rows).toEqual(whole.rows);
    expect(percentileMs(merged.overall, 99)).toBe(percentileMs(whole.overall, 99));
  });

  it('a share is the change since the last one: nothing is counted twice', () => {
    const stats = new LoadStats(() => true);
    const tracker = new ShareTracker(stats);
    stats.onSent(0);
    stats.onResponse(1, 200);
    expect(tracker.take()).toMatchObject({ sent: 1, completed: 1, statuses: [[200, 1]] });
    expect(tracker.take()).toEqual({ sent: 0, completed: 0, errors: 0, dropped: 0, behind: 0, cancelled: 0, statuses: [], failures: [] });
    stats.onFailure(3, 'CONNECTION_RESET');
    stats.cancelled += 2;
    expect(tracker.take()).toMatchObject({ completed: 1, errors: 1, cancelled: 2, failures: [['CONNECTION_RESET', 1]], statuses: [] });
  });

  it('the run stops for the strongest reason any worker stopped for', () => {
    expect(mergedStopReason(['completed', 'completed'])).toBe('completed');
    expect(mergedStopReason(['completed', 'max-requests'])).toBe('max-requests');
    expect(mergedStopReason(['source-exhausted', 'completed'])).toBe('source-exhausted');
    expect(mergedStopReason(['threshold-crossed', 'completed'])).toBe('threshold-crossed');
    expect(mergedStopReason(['threshold-crossed', 'interrupted'])).toBe('interrupted');
  });
});

describe('splitting the totals', () => {
  it('connections and requests in flight stay totals: split evenly, the remainder to the first workers', () => {
    expect([0, 1, 2].map((i) => evenShare(64, i, 3))).toEqual([22, 21, 21]);
    expect([0, 1].map((i) => evenShare(10_000, i, 2))).toEqual([5000, 5000]);
    expect([0, 1, 2].map((i) => evenShare(2, i, 3))).toEqual([1, 1, 0]);
  });

  it('no worker is left without a connection or a request in flight, and there is always one', () => {
    expect(usableWorkers(3, 2, 10_000)).toBe(2);
    expect(usableWorkers(4, 64, 3)).toBe(3);
    expect(usableWorkers(4, 64, 10_000)).toBe(4);
    expect(usableWorkers(0, 64, 100)).toBe(1);
  });

  it('the default leaves a core for a target on the same machine, and is at least one', () => {
    expect(defaultWorkers(1)).toBe(1);
    expect(defaultWorkers(2)).toBe(1);
    expect(defaultWorkers(16)).toBe(15);
  });
});

describe('the driver as the bottleneck', () => {
  const withLate = (sent: number, behind: number): LoadStats => {
    const stats = new LoadStats(() => true);
    stats.sent = sent;
    stats.behind = behind;
    return stats;
  };

  it('is said when a sending thread was saturated AND arrivals went out late (or waited for signing)', () => {
    expect(driverLoad([0.97, 0.5], withLate(1000, 50), 0).saturated).toBe(true);
    expect(driverLoad([0.95], withLate(1000, 0), 3).saturated).toBe(true);
    // Busy but on time: no headroom, yet the target set the pace.
    expect(driverLoad([0.97], withLate(1000, 5), 0).saturated).toBe(false);
    // Late with idle loops: the machine (or the target), not the driver.
    expect(driverLoad([0.4, 0.3], withLate(1000, 500), 0).saturated).toBe(false);
  });

  it('the console line names the threads and says so in words when the driver set the pace; one easy thread says nothing', () => {
    expect(describeDriver(driverLoad([0.2], withLate(10, 0), 0))).toBeUndefined();
    expect(describeDriver(driverLoad([0.5, 0.25], withLate(10, 0), 0))).toBe('2 sending threads, busy 50 % / 25 % while sending');
    expect(describeDriver(driverLoad([0.99], withLate(100, 90), 0))).toMatch(/^1 sending thread, busy 99 % while sending: THE DRIVER WAS THE BOTTLENECK .* not the target's/);
  });
});
