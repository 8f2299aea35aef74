/**
 * Load statistics in constant memory: HDR histograms (hdr-histogram-js) for latency, never arrays of
 * samples, plus one small row per second for the charts (merged pairwise past a bound, so a day-long soak
 * keeps at most `maxRows` rows).
 *
 * Latency is recorded in microseconds from each request's intended send time to the end of its response.
 * Requests that fail in transport are counted by error code; a timeout's latency is recorded too (the
 * target did not answer in time: that is latency), other transport failures are not (a refused connection
 * fails fast and would make the percentiles look better than the target).
 */
import { build, type Histogram } from 'hdr-histogram-js';
import { statusKind, type ErrorSamples } from './error-samples.js';

/** One µs to one hour, three significant digits: ~100 KB per histogram whatever the run length. */
const LOWEST_US = 1;
const HIGHEST_US = 3_600_000_000;

export function newHistogram(): Histogram {
  return build({ lowestDiscernibleValue: LOWEST_US, highestTrackableValue: HIGHEST_US, numberOfSignificantValueDigits: 3, autoResize: false });
}

/**
 * A percentile in ms that never exceeds the largest value recorded. HDR reports a percentile as the top of
 * its bucket (at three significant digits a bucket above 2 ms is up to 0.1 % wide), while `maxValue` is the
 * value itself: unclamped, a second whose slowest answer decides its p99 showed p99 above max (10.007 ms
 * beside 10.001). No recorded value lies above the max, so neither does any percentile of them.
 */
export function percentileMs(h: Histogram, percentile: number): number {
  return Math.min(h.getValueAtPercentile(percentile), h.maxValue) / 1000;
}

function toMicros(ms: number): number {
  return Math.min(HIGHEST_US, Math.max(LOWEST_US, Math.round(ms * 1000)));
}

export interface IntervalRow {
  /** Seconds since the start at the end of this row. */
  t: number;
  /** Width of the row in seconds (1 until rows are merged). */
  seconds: number;
  /** Arrivals the schedule asked for in this row. */
  asked: number;
  sent: number;
  /** Answers received (any status) plus transport failures. */
  completed: number;
  /** Completed with an unexpected status, or failed in transport. */
  errors: number;
  dropped: number;
  /** Latency in ms of what completed in this row; merged rows keep the worse (higher) p90/p99/max. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Tallies a worker adds to the merged statistics (LoadStats.absorb): the change since its last share. */
export interface StatsShare {
  sent: number;
  completed: number;
  errors: number;
  dropped: number;
  behind: number;
  cancelled: number;
  statuses: Array<[number, number]>;
  failures: Array<[string, number]>;
}

export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  stddev: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

/** Points of the percentile spectrum for the distribution chart. */
export const SPECTRUM_PERCENTILES = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100];

/** Dispatch later than this after the intended time counts as behind schedule. */
export const BEHIND_MS = 5;

export class LoadStats {
  readonly overall = newHistogram();
  /** Dispatch time minus intended time: how far the driver itself fell behind. */
  readonly sendLag = newHistogram();
  readonly statuses = new Map<number, number>();
  readonly failures = new Map<string, number>();
  sent = 0;
  completed = 0;
  errors = 0;
  dropped = 0;
  behind = 0;
  /** Requests still in flight when the run was interrupted. */
  cancelled = 0;
  rows: IntervalRow[] = [];
  /** Also given each recorded latency in ms (the live metrics' histogram, metrics.ts); unset: no cost. */
  latencyTap: ((ms: number) => void) | undefined;
  /** Shown each row's latencies before they fold into `overall` (a worker ships them, worker-share.ts). */
  rowTap: ((interval: Histogram) => void) | undefined;

  private interval = newHistogram();
  private rowSent = 0;
  private rowCompleted = 0;
  private rowErrors = 0;
  private rowDropped = 0;
  private lastRollMs = 0;

  constructor(
    private readonly expected: (status: number) => boolean,
    private readonly maxRows = 3600,
    /** The first errors of each kind, with their bodies (error-samples.ts); unset: none kept. */
    readonly samples?: ErrorSamples,
  ) {}

  /** For the transport (asked once per answer): keep this answer's body? Only an error still short of samples. */
  wantsBody(status: number): boolean {
    return this.samples !== undefined && !this.expected(status) && this.samples.wants(statusKind(status));
  }

  onSent(lagMs: number): void {
    this.sent += 1;
    this.rowSent += 1;
    this.sendLag.recordValue(toMicros(lagMs));
    if (lagMs > BEHIND_MS) this.behind += 1;
  }

  onDropped(): void {
    this.dropped += 1;
    this.rowDropped += 1;
  }

  /** `body` (its start) and `bodyBytes` (its size): for an error sample; only errors carry a body. */
  onResponse(latencyMs: number, status: number, body?: Buffer, bodyBytes?: number): void {
    this.completed += 1;
    this.rowCompleted += 1;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (!this.expected(status)) {
      this.errors += 1;
      this.rowErrors += 1;
      this.samples?.add(statusKind(status), status, body, bodyBytes);
    }
    this.interval.recordValue(toMicros(latencyMs));
    this.latencyTap?.(latencyMs);
  }

  onFailure(latencyMs: number, code: string): void {
    this.completed += 1;
    this.rowCompleted += 1;
    this.errors += 1;
    this.rowErrors += 1;
    this.failures.set(code, (this.failures.get(code) ?? 0) + 1);
    this.samples?.add(code, 0);
    if (code === 'TIMEOUT') {
      this.interval.recordValue(toMicros(latencyMs));
      this.latencyTap?.(latencyMs);
    }
  }

  /**
   * A worker's share of the current row (`load --workers`, worker-share.ts), counted as if recorded here:
   * its tallies added once, its latencies merged into the row's histogram exactly (HDR add, not averages).
   */
  absorb(share: StatsShare, latency: Histogram | undefined): void {
    this.sent += share.sent;
    this.rowSent += share.sent;
    this.completed += share.completed;
    this.rowCompleted += share.completed;
    this.errors += share.errors;
    this.rowErrors += share.errors;
    this.dropped += share.dropped;
    this.rowDropped += share.dropped;
    this.behind += share.behind;
    this.cancelled += share.cancelled;
    for (const [status, n] of share.statuses) this.statuses.set(status, (this.statuses.get(status) ?? 0) + n);
    for (const [code, n] of share.failures) this.failures.set(code, (this.failures.get(code) ?? 0) + n);
    if (latency !== undefined) this.interval.add(latency);
  }

  /** Closes the current row at `nowMs` (since start) and folds its histogram into the overall one. */
  roll(nowMs: number, asked: number): IntervalRow {
    const h = this.interval;
    const has = h.totalCount > 0;
    const row: IntervalRow = {
      t: nowMs / 1000,
      seconds: (nowMs - this.lastRollMs) / 1000,
      asked,
      sent: this.rowSent,
      completed: this.rowCompleted,
      errors: this.rowErrors,
      dropped: this.rowDropped,
      p50: has ? percentileMs(h, 50) : 0,
      p90: has ? percentileMs(h, 90) : 0,
      p99: has ? percentileMs(h, 99) : 0,
      max: has ? h.maxValue / 1000 : 0,
    };
    this.rowTap?.(h);
    this.overall.add(h);
    h.reset();
    this.rowSent = this.rowCompleted = this.rowErrors = this.rowDropped = 0;
    this.lastRollMs = nowMs;
    this.rows.push(row);
    if (this.rows.length > this.maxRows) this.rows = mergePairs(this.rows);
    return row;
  }

  /** Answers by status, in status order, as JSON keys (report and stream alike). */
  statusCounts(): Record<string, number> {
    return Object.fromEntries([...this.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]));
  }

  latency(): LatencySummary {
    return summarize(this.overall);
  }

  /** [percentile, ms] pairs over the whole run. */
  spectrum(): Array<[number, number]> {
    if (this.overall.totalCount === 0) return [];
    return SPECTRUM_PERCENTILES.map((p) => [p, percentileMs(this.overall, p)]);
  }
}

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, min: NaN, mean: NaN, stddev: NaN, p50: NaN, p90: NaN, p95: NaN, p99: NaN, p999: NaN, max: NaN };
  return {
    count: h.totalCount,
    min: h.minNonZeroValue / 1000,
    mean: h.mean / 1000,
    stddev: h.stdDeviation / 1000,
    p50: percentileMs(h, 50),
    p90: percentileMs(h, 90),
    p95: percentileMs(h, 95),
    p99: percentileMs(h, 99),
    p999: percentileMs(h, 99.9),
    max: h.maxValue / 1000,
  };
}

function mergePairs(rows: IntervalRow[]): IntervalRow[] {
  const out: IntervalRow[] = [];
  for (let i = 0; i < rows.length; i += 2) {
    const a = rows[i];
    const b = rows[i + 1];
    if (!b) {
      out.push(a);
      continue;
    }
    const completed = a.completed + b.completed;
    out.push({
      t: b.t,
      seconds: a.seconds + b.seconds,
      asked: a.asked + b.asked,
      sent: a.sent + b.sent,
      completed,
      errors: a.errors + b.errors,
      dropped: a.dropped + b.dropped,
      p50: completed > 0 ? (a.p50 * a.completed + b.p50 * b.completed) / completed : 0,
      p90: Math.max(a.p90, b.p90),
      p99: Math.max(a.p99, b.p99),
      max: Math.max(a.max, b.max),
    });
  }
  return out;
}
