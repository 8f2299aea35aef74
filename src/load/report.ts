/**
 * The load report: one JSON-serialisable object built from the run's statistics, written as JSON and as a
 * self-contained HTML page. It never holds a secret: only the target's name and base URL, listener IDs and
 * counts.
 */
import { toolVersion } from '../package.js';
import type { DriveResult, SendingEnd } from './driver.js';
import type { ErrorSample } from './error-samples.js';
import type { ThresholdAbort } from './abort.js';
import type { Interruption } from './interruption.js';
import type { Stage } from './parse.js';
import type { ArrivalSchedule } from './schedule.js';
import type { Scenario } from './source.js';
import { summarize, type IntervalRow, type LatencySummary, type LoadStats } from './stats.js';
import { evaluateThresholds, type Threshold, type ThresholdResult, type ThresholdValues } from './thresholds.js';

export interface LoadRunConfig {
  scenario: Scenario;
  /** Constant rate (with durationMs), or stages. */
  rate?: number;
  durationMs?: number;
  stages?: Stage[];
  connections: number;
  maxInFlight: number;
  maxRequests?: number;
  bodyBytes?: number;
  timeoutMs: number;
  thresholds: string[];
  /** Set when a threshold may stop the run: --abort-on-fail (`all`) or `:abort`, and the grace period. */
  abort?: { all: boolean; graceMs: number; thresholds: string[] };
}

/** What a load JSON report is, for a consumer that reads several kinds of file. */
export const LOAD_REPORT_FORMAT = 'access-conformance-load-report';
/** Bumped when a field changes meaning or goes; fields are only ever added within a version. */
export const LOAD_REPORT_FORMAT_VERSION = 1;

export interface LoadReport {
  format: typeof LOAD_REPORT_FORMAT;
  formatVersion: typeof LOAD_REPORT_FORMAT_VERSION;
  tool: string;
  version: string;
  scenario: Scenario;
  target: { name: string; baseUrl: string; embedded: boolean };
  startedAt: string;
  elapsedSeconds: number;
  config: LoadRunConfig;
  /** Scenario facts: listener, algorithm, where signing runs… */
  details: Record<string, string | number>;
  stopReason: SendingEnd;
  interrupted: boolean;
  /** Set when a signal (or the caller's abort) stopped the run: which, when, and the exit code. */
  interruption?: Interruption;
  /** Set when a crossed threshold stopped the run early (--abort-on-fail, `:abort`); stopReason `threshold-crossed`. */
  thresholdAbort?: ThresholdAbort;
  expectedStatus: string;
  counts: {
    /** Arrivals the schedule held (after --max-requests). */
    planned: number;
    /** Arrivals whose time came before the run stopped. */
    due: number;
    sent: number;
    /** Answers (any status) + transport failures. */
    completed: number;
    /** Answers with the expected status. */
    expected: number;
    /** Unexpected statuses + transport failures. */
    errors: number;
    transportFailures: number;
    dropped: number;
    /** In flight when the run ended (interrupt or drain timeout): neither answered nor failed. */
    cancelled: number;
    /** Sent more than 5 ms after their intended time. */
    behindSchedule: number;
    /** Times the sender waited for the request producer (signing too slow for the rate). */
    starved: number;
    statuses: Record<string, number>;
    failures: Record<string, number>;
  };
  rates: { askedPerSecond: number; sentPerSecond: number; achievedPerSecond: number };
  latencyMs: LatencySummary;
  sendLagMs: { p50: number; p99: number; max: number };
  /** Percentile spectrum: [percentile, ms]. */
  distribution: Array<[number, number]>;
  timeline: IntervalRow[];
  thresholds: ThresholdResult[];
  /** The first few errors of each kind with the start of their bodies, redacted (error-samples.ts). */
  errorSamples: ErrorSample[];
  /** The driver's own load: threads, how busy each was while sending, and whether it was the bottleneck. */
  driver?: DriverLoad;
  /** Every threshold held. */
  passed: boolean;
  /** The code `load` ends with: 0 thresholds held, 1 one was crossed, 130 / 143 (2) interrupted; never 0 when interrupted. */
  exitCode: number;
}

/**
 * Whether the driver, not the target, set the pace: some sending thread's event loop was busy nearly all
 * the time AND arrivals went out late (or waited for signing). Either alone is not enough: a busy loop on
 * schedule is a driver with no headroom left but keeping up; late sends with idle loops are the machine.
 */
export interface DriverLoad {
  /** Sending threads (`--workers`). */
  workers: number;
  /** Each thread's event-loop utilisation while sending, 0..1. */
  busy: number[];
  /** The driver was the bottleneck: the rates are its limit, not the target's. */
  saturated: boolean;
}

/** A sending thread this busy (event-loop utilisation) has no time left for the schedule. */
export const DRIVER_BUSY = 0.9;
/** Late sends (more than BEHIND_MS after their time) past this share of the sent mean arrivals waited on the driver. */
export const DRIVER_LATE_SHARE = 0.01;

export function driverLoad(busy: number[], stats: LoadStats, starved: number): DriverLoad {
  const late = stats.sent > 0 && stats.behind / stats.sent > DRIVER_LATE_SHARE;
  return { workers: busy.length, busy: busy.map((b) => Math.round(b * 1000) / 1000), saturated: Math.max(...busy) >= DRIVER_BUSY && (late || starved > 0) };
}

export interface BuildReportInput {
  config: LoadRunConfig;
  target: LoadReport['target'];
  details: Record<string, string | number>;
  expectedStatus: string;
  schedule: ArrivalSchedule;
  stats: LoadStats;
  result: DriveResult;
  thresholds: Threshold[];
  interruption?: Interruption;
  thresholdAbort?: ThresholdAbort;
  driver?: DriverLoad;
}

/**
 * What thresholds are checked against, from the tallies so far: at the end of the run (the report), and
 * each second while it runs (`--stream`, `--abort-on-fail`).
 */
export function thresholdValues(stats: LoadStats, latency: LatencySummary, elapsedMs: number): ThresholdValues {
  const due = stats.sent + stats.dropped;
  return {
    p50: latency.p50,
    p90: latency.p90,
    p95: latency.p95,
    p99: latency.p99,
    'p99.9': latency.p999,
    max: latency.max,
    mean: latency.mean,
    errors: stats.completed > 0 ? stats.errors / stats.completed : NaN,
    rate: stats.completed / Math.max(elapsedMs / 1000, 0.001),
    dropped: due > 0 ? stats.dropped / due : 0,
    behind: stats.sent > 0 ? stats.behind / stats.sent : 0,
  };
}

export function buildReport(input: BuildReportInput): LoadReport {
  const { stats, result, schedule } = input;
  const elapsedSeconds = result.elapsedMs / 1000;
  const sendingSeconds = Math.max(result.sendingMs, 1) / 1000;
  const due = stats.sent + stats.dropped;
  const transportFailures = [...stats.failures.values()].reduce((a, b) => a + b, 0);
  const expected = [...stats.statuses.entries()].filter(([status]) => input.expectedStatus === String(status)).reduce((a, [, n]) => a + n, 0);
  const latency = stats.latency();
  const lag = summarize(stats.sendLag);
  // Asked: over the whole plan for a finished run; over the part that was due for a stopped one.
  const plannedSeconds = schedule.durationMs / 1000;
  const askedPerSecond = result.stopReason === 'completed' ? schedule.total / plannedSeconds : due / sendingSeconds;
  const achievedPerSecond = stats.completed / Math.max(elapsedSeconds, 0.001);
  // The threshold that stopped the run stays crossed whatever the drain added after it.
  const stopper = input.thresholdAbort?.threshold;
  const thresholds = evaluateThresholds(input.thresholds, thresholdValues(stats, latency, result.elapsedMs)).map((t) => (t.expression === stopper ? { ...t, ok: false } : t));
  return {
    format: LOAD_REPORT_FORMAT,
    formatVersion: LOAD_REPORT_FORMAT_VERSION,
    tool: 'access-conformance load',
    version: toolVersion(),
    scenario: input.config.scenario,
    target: input.target,
    startedAt: new Date(result.startedAt).toISOString(),
    elapsedSeconds,
    config: input.config,
    details: input.details,
    stopReason: result.stopReason,
    interrupted: result.stopReason === 'interrupted' || input.interruption !== undefined,
    ...(input.interruption ? { interruption: input.interruption } : {}),
    ...(input.thresholdAbort ? { thresholdAbort: input.thresholdAbort } : {}),
    expectedStatus: input.expectedStatus,
    counts: {
      planned: schedule.total,
      due,
      sent: stats.sent,
      completed: stats.completed,
      expected,
      errors: stats.errors,
      transportFailures,
      dropped: stats.dropped,
      cancelled: stats.cancelled,
      behindSchedule: stats.behind,
      starved: result.starved,
      statuses: stats.statusCounts(),
      failures: Object.fromEntries(stats.failures.entries()),
    },
    rates: { askedPerSecond, sentPerSecond: stats.sent / sendingSeconds, achievedPerSecond },
    latencyMs: latency,
    sendLagMs: { p50: lag.p50, p99: lag.p99, max: lag.max },
    distribution: stats.spectrum(),
    timeline: stats.rows,
    thresholds,
    errorSamples: stats.samples?.list() ?? [],
    ...(input.driver ? { driver: input.driver } : {}),
    passed: thresholds.every((t) => t.ok),
    exitCode: input.interruption ? input.interruption.exitCode : thresholds.every((t) => t.ok) ? 0 : 1,
  };
}
