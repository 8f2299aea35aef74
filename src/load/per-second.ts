/**
 * What happens each time the driver closes a one-second row: the progress line, the `--stream` line, and
 * the thresholds checked against the totals so far. Kept off the send loop: this runs once a second.
 */
import type { IntervalState } from './driver.js';
import { thresholdValues } from './report.js';
import { progressLine } from './report-text.js';
import type { Scenario } from './source.js';
import type { IntervalRow, LoadStats } from './stats.js';
import { streamLine, type LoadStream } from './stream.js';
import { evaluateThresholds, type Threshold, type ThresholdResult } from './thresholds.js';

export interface PerSecondOptions {
  scenario: Scenario;
  stats: LoadStats;
  thresholds: readonly Threshold[];
  onProgress?: (line: string) => void;
  stream?: LoadStream;
  /** Told the thresholds evaluated on the totals so far, each second (not after the last row). */
  onThresholds?: (results: ThresholdResult[], elapsedMs: number) => void;
}

export function perSecond(options: PerSecondOptions): ((row: IntervalRow, state: IntervalState) => void) | undefined {
  const { stats, stream, onProgress, onThresholds } = options;
  if (!stream && !onProgress && !onThresholds) return undefined;
  return (row, state) => {
    // The last row is usually a sliver of a second: in the timeline and the stream, not worth a progress line.
    if (onProgress && (!state.final || row.seconds >= 0.5)) onProgress(progressLine(row, state));
    if (!stream && !onThresholds) return;
    const latency = stats.latency();
    const results = evaluateThresholds(options.thresholds, thresholdValues(stats, latency, state.elapsedMs));
    stream?.write(streamLine({ scenario: options.scenario, row, final: state.final, inFlight: state.inFlight, stats, latency, thresholds: results }));
    if (!state.final) onThresholds?.(results, state.elapsedMs);
  };
}
