/**
 * What a `load --workers` thread tells the main thread, and how its figures are merged there: each row a
 * worker closes (once a second, the rows of every worker aligned on the run's one start) goes over as the
 * change in its tallies and its latencies as an HDR histogram (compressed, then added to the merged row:
 * exact, never an average of percentiles). Dropped, errored and cancelled requests are counted by the one
 * worker that met them, so each is counted once.
 */
import { decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';
import type { HarnessErrorCode } from '../errors.js';
import type { DriveResult } from './driver.js';
import type { ErrorSample } from './error-samples.js';
import type { ResolvedProfile } from '../profile/types.js';
import type { Corpus } from './corpus.js';
import type { ScheduleSpec } from './schedule.js';
import type { SourceSettings } from './scenario-source.js';
import type { Scenario } from './source.js';
import { newHistogram, type LoadStats, type StatsShare } from './stats.js';

/** Everything a worker needs, as plain data (workerData). */
export interface WorkerSetup {
  index: number;
  count: number;
  scenario: Scenario;
  profile: ResolvedProfile;
  settings: SourceSettings;
  /** This worker's part of the corpus (entries index, index + count, …): each entry is sent once. */
  corpus?: Corpus;
  schedule: ScheduleSpec;
  peakRate: number;
  connections: number;
  maxInFlight: number;
  timeoutMs: number;
  drainTimeoutMs: number;
  interruptDrainMs: number;
  haltDrainMs: number;
  capped: boolean;
  clockOffsetSeconds: number;
  /** Ship every latency too (`--metrics-listen` observes each one in its histogram). */
  latencies: boolean;
}

export type ToWorker =
  /** Start sending: the schedule's first arrival is due at this epoch time (performance.timeOrigin + now). */
  | { type: 'go'; startAt: number }
  | { type: 'interrupt' }
  | { type: 'halt' };

export interface RowMessage {
  type: 'row';
  /** 0, 1, 2…: the worker's rows in order; the last one has `final`. */
  index: number;
  final: boolean;
  share: StatsShare;
  /** The row's latencies, absent when nothing completed. */
  latency?: ShippedHistogram;
  /** Each latency in ms, when the setup asked for them. */
  latencies?: Float64Array;
  inFlight: number;
}

export type FromWorker =
  /** Primed: what its source expects and says about itself (the same in every worker). */
  | { type: 'ready'; expectedLabel: string; details: Record<string, string | number> }
  | RowMessage
  | {
      type: 'done';
      result: DriveResult;
      /** Its send-lag histogram, whole. */
      sendLag: ShippedHistogram;
      /** The share of its sending time its event loop was busy (0..1): near 1, the driver is the limit. */
      busy: number;
      samples: ErrorSample[];
    }
  | { type: 'failed'; error: { code?: HarnessErrorCode; message: string; field?: string; hint?: string } };

/**
 * A histogram as a worker sends it: its counts (HDR's compressed encoding) and its exact extremes, which
 * the encoding rounds to their bucket; with them the merged max and min are the recorded values themselves.
 */
export interface ShippedHistogram {
  counts: string;
  max: number;
  min: number;
}

export function encodeHistogram(h: Histogram): ShippedHistogram {
  return { counts: encodeIntoCompressedBase64(h), max: h.maxValue, min: h.minNonZeroValue };
}

export function decodeHistogram(shipped: ShippedHistogram): Histogram {
  // Into one of the run's own histograms, so merges keep its range and precision.
  const into = newHistogram();
  into.add(decodeFromCompressedBase64(shipped.counts));
  // JsHistogram keeps both as plain fields, and add() carries them over as they are.
  Object.assign(into, { maxValue: shipped.max, minNonZeroValue: shipped.min });
  return into;
}

/** The change in a worker's tallies since its last row: what the main thread adds (LoadStats.absorb). */
export class ShareTracker {
  private last: StatsShare = { sent: 0, completed: 0, errors: 0, dropped: 0, behind: 0, cancelled: 0, statuses: [], failures: [] };

  constructor(private readonly stats: LoadStats) {}

  take(): StatsShare {
    const { stats, last } = this;
    const lastStatuses = new Map(last.statuses);
    const lastFailures = new Map(last.failures);
    const now: StatsShare = {
      sent: stats.sent,
      completed: stats.completed,
      errors: stats.errors,
      dropped: stats.dropped,
      behind: stats.behind,
      cancelled: stats.cancelled,
      statuses: [...stats.statuses],
      failures: [...stats.failures],
    };
    this.last = now;
    return {
      sent: now.sent - last.sent,
      completed: now.completed - last.completed,
      errors: now.errors - last.errors,
      dropped: now.dropped - last.dropped,
      behind: now.behind - last.behind,
      cancelled: now.cancelled - last.cancelled,
      statuses: now.statuses.map(([status, n]) => [status, n - (lastStatuses.get(status) ?? 0)] as [number, number]).filter(([, n]) => n !== 0),
      failures: now.failures.map(([code, n]) => [code, n - (lastFailures.get(code) ?? 0)] as [string, number]).filter(([, n]) => n !== 0),
    };
  }
}

/**
 * The stop reason of the whole run from its workers': a signal first, then a crossed threshold, then a
 * worker whose source ran out, then the cap; else completed.
 */
const STOP_PRIORITY: ReadonlyArray<DriveResult['stopReason']> = ['interrupted', 'threshold-crossed', 'source-exhausted', 'max-requests', 'completed'];

export function mergedStopReason(reasons: ReadonlyArray<DriveResult['stopReason']>): DriveResult['stopReason'] {
  return STOP_PRIORITY.find((reason) => reasons.includes(reason)) ?? 'completed';
}
