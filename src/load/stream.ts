/**
 * `load --stream FILE`: one JSON line of aggregates a second, appended as the run goes (k6's `--out json`
 * in spirit, but aggregated: a day-long soak at thousands of requests per second stays a few MB).
 *
 * Each line is written with one synchronous write(2) on a file opened for appending, as soon as its second
 * closes: once written it is the kernel's, so a run killed with SIGKILL keeps every line written so far
 * (a power cut may still lose the last seconds: there is no fsync). The file is opened non-blocking, so a
 * FIFO never stalls the run (output-file.ts). The schema is
 * schemas/load-stream.schema.json; docs/load.md describes the fields.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HarnessError } from '../errors.js';
import { describeOutputFailure, makeDirs, outputError, outputOpenFlags } from '../output-file.js';
import type { LoadReport } from './report.js';
import type { Scenario } from './source.js';
import type { IntervalRow, LatencySummary, LoadStats } from './stats.js';
import type { ThresholdResult } from './thresholds.js';

export const LOAD_STREAM_FORMAT = 'access-conformance-load-stream';
/** Bumped when a field changes meaning or goes; fields are only ever added within a version. */
export const LOAD_STREAM_FORMAT_VERSION = 1;

/** Latency in ms; null when nothing was answered. */
export interface StreamLatency {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

export interface StreamLine {
  format: typeof LOAD_STREAM_FORMAT;
  formatVersion: typeof LOAD_STREAM_FORMAT_VERSION;
  scenario: Scenario;
  /** Wall clock at the end of this second. */
  at: string;
  /** Seconds since the first intended send, at the end of this line's interval. */
  t: number;
  /** Width of the interval in seconds (about 1; the last line is usually shorter). */
  seconds: number;
  /** The run's last line (written after sending stopped and in-flight requests drained). */
  final: boolean;
  /** This interval alone. */
  interval: {
    asked: number;
    sent: number;
    completed: number;
    errors: number;
    dropped: number;
    /** Completed per second over the interval. */
    ratePerSecond: number;
    latencyMs: StreamLatency;
  };
  /** From the start up to the end of this interval. */
  total: Pick<LoadReport['counts'], 'sent' | 'completed' | 'errors' | 'dropped' | 'behindSchedule' | 'statuses' | 'failures'> & {
    /** Sent and not yet answered when the line was written. */
    inFlight: number;
    latencyMs: StreamLatency;
  };
  /** Every threshold against the totals so far (what --abort-on-fail acts on). */
  thresholds: Array<{ expression: string; ok: boolean; actual: number | null }>;
}

export interface StreamInput {
  scenario: Scenario;
  row: IntervalRow;
  final: boolean;
  inFlight: number;
  stats: LoadStats;
  latency: LatencySummary;
  thresholds: readonly ThresholdResult[];
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

export function streamLine(input: StreamInput): StreamLine {
  const { row, stats, latency } = input;
  const answered = row.completed > 0;
  return {
    format: LOAD_STREAM_FORMAT,
    formatVersion: LOAD_STREAM_FORMAT_VERSION,
    scenario: input.scenario,
    at: new Date().toISOString(),
    t: round(row.t),
    seconds: round(row.seconds),
    final: input.final,
    interval: {
      asked: row.asked,
      sent: row.sent,
      completed: row.completed,
      errors: row.errors,
      dropped: row.dropped,
      ratePerSecond: round(row.completed / Math.max(row.seconds, 0.001)),
      // A row with no answer has zeros for its percentiles (stats.ts): no latency, so null here.
      latencyMs: answered ? { p50: row.p50, p90: row.p90, p99: row.p99, max: row.max } : { p50: null, p90: null, p99: null, max: null },
    },
    total: {
      sent: stats.sent,
      completed: stats.completed,
      errors: stats.errors,
      dropped: stats.dropped,
      behindSchedule: stats.behind,
      inFlight: input.inFlight,
      statuses: stats.statusCounts(),
      failures: Object.fromEntries(stats.failures.entries()),
      latencyMs: { p50: finite(latency.p50), p90: finite(latency.p90), p99: finite(latency.p99), max: finite(latency.max) },
    },
    thresholds: input.thresholds.map((t) => ({ expression: t.expression, ok: t.ok, actual: finite(t.actual) })),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Lines kept while a FIFO's reader lags (about a minute of them); past that the stream fails. */
const MAX_PENDING_LINES = 60;

/**
 * The file `--stream` appends to, opened before the run starts (a bad path is a usage error, exit 2, at
 * once). A write that fails later (a full disk, a FIFO whose reader went away or stopped reading for a
 * minute) does not crash the run: the stream stops, {@link LoadStream.failure} says why (OUTPUT_UNWRITABLE
 * naming the flag) and the run's reports are still written; the command then exits 2.
 */
export class LoadStream {
  private fd: number | undefined;
  /** Lines a lagging FIFO reader has not taken yet (a write to it never blocks the run). */
  private pending: Buffer[] = [];
  private failed: HarnessError | undefined;

  private constructor(
    readonly path: string,
    readonly flag: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  static open(path: string, flag = '--stream'): LoadStream {
    const full = resolve(path);
    try {
      makeDirs(dirname(full), flag);
      return new LoadStream(full, flag, openSync(full, outputOpenFlags(true), 0o666));
    } catch (error) {
      throw new HarnessError('LOAD_CONFIG', `${flag} ${path}: cannot open it for appending: ${describeOutputFailure(error)}`, {
        field: flag,
        hint: 'Name a file in a writable folder, e.g. --stream reports/load-stream.jsonl (a FIFO needs its reader started first)',
        cause: error,
      });
    }
  }

  /** Why the stream stopped, if a write failed; the run still ends and writes its reports. */
  get failure(): HarnessError | undefined {
    return this.failed;
  }

  /** One line, written now (see the module comment), or kept while a FIFO's reader lags. */
  write(line: StreamLine): void {
    if (this.fd === undefined) return;
    this.pending.push(Buffer.from(`${JSON.stringify(line)}\n`, 'utf8'));
    this.flush();
  }

  private flush(): void {
    while (this.fd !== undefined && this.pending.length > 0) {
      const head = this.pending[0]!;
      try {
        const n = writeSync(this.fd, head);
        if (n < head.length) this.pending[0] = head.subarray(n);
        else this.pending.shift();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN' && this.pending.length <= MAX_PENDING_LINES) return;
        this.fail(error);
      }
    }
  }

  private fail(error: unknown): void {
    this.failed = outputError(this.flag, this.path, error);
    this.pending = [];
    this.close();
  }

  /** Closes the file; a line still waiting for a FIFO's reader then is lost, and said. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    if (this.pending.length > 0 && this.failed === undefined) {
      this.flush();
      if (this.pending.length > 0) this.failed = outputError(this.flag, this.path, Object.assign(new Error('reader lagging'), { code: 'EAGAIN' }));
    }
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch (error) {
      this.failed ??= outputError(this.flag, this.path, error);
    }
  }
}
