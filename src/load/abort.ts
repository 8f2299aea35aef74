/**
 * Thresholds that stop the run early (`--abort-on-fail`, or `:abort` on one threshold; k6's abortOnFail
 * with delayAbortEval). Each second the driver closes a row, the thresholds are checked against the totals
 * so far (per-second.ts); past the grace period, the first aborting threshold found crossed stops sending.
 * The report then says which, when and by how much, and the run exits 1 as for any crossed threshold.
 */
import { DEFAULT_ABORT_AFTER_MS } from './constants.js';
import { canAbort, type Threshold, type ThresholdResult } from './thresholds.js';

export { DEFAULT_ABORT_AFTER_MS };

export interface AbortPolicy {
  /** `--abort-on-fail`: every threshold aborts (but `rate`, checked at the end only). */
  all: boolean;
  /** `--abort-after`: no abort before this long after the first send. */
  graceMs: number;
}

export interface ThresholdAbort {
  /** The threshold as written. */
  threshold: string;
  /** Its value when it was found crossed (ms, share or per second, as the threshold's). */
  actual: number;
  /** Seconds since the first intended send when it was found crossed. */
  atSeconds: number;
  graceSeconds: number;
}

export function aborting(thresholds: readonly Threshold[], policy: AbortPolicy): Set<string> {
  return new Set(thresholds.filter((t) => t.abort || (policy.all && canAbort(t.metric))).map((t) => t.expression));
}

/**
 * A watcher for per-second threshold results: calls `stop` once, with the first crossing of an aborting
 * threshold past the grace period. `crossing()` says what stopped the run, if anything did.
 */
export function thresholdWatch(thresholds: readonly Threshold[], policy: AbortPolicy, stop: () => void): { check: (results: ThresholdResult[], elapsedMs: number) => void; crossing: () => ThresholdAbort | undefined } {
  const watched = aborting(thresholds, policy);
  let found: ThresholdAbort | undefined;
  return {
    check(results, elapsedMs) {
      if (found || watched.size === 0 || elapsedMs < policy.graceMs) return;
      const crossed = results.find((r) => watched.has(r.expression) && !r.ok);
      if (!crossed) return;
      found = { threshold: crossed.expression, actual: crossed.actual, atSeconds: elapsedMs / 1000, graceSeconds: policy.graceMs / 1000 };
      stop();
    },
    crossing: () => found,
  };
}
