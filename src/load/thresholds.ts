/**
 * `--threshold` expressions, like k6's: `p99<50ms`, `p99.9<=200ms`, `max<1s`, `errors<0.1%`, `rate>=450`,
 * `dropped<1%`, `behind<5%`. A crossed threshold makes `load` exit 1. A `:abort` suffix (`p99<50ms:abort`,
 * k6's abortOnFail) stops the run as soon as the threshold is crossed, past the grace period (abort.ts).
 */
import { HarnessError } from '../errors.js';

export type ThresholdMetric = 'p50' | 'p90' | 'p95' | 'p99' | 'p99.9' | 'max' | 'mean' | 'errors' | 'rate' | 'dropped' | 'behind';
export type ThresholdOp = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** As the user wrote it. */
  expression: string;
  metric: ThresholdMetric;
  op: ThresholdOp;
  /** Milliseconds for latency metrics, a share (0..1) for errors/dropped/behind, per second for rate. */
  limit: number;
  /** Written with `:abort`: crossing it stops the run (as every threshold does with --abort-on-fail). */
  abort: boolean;
}

export interface ThresholdResult extends Threshold {
  actual: number;
  ok: boolean;
}

/** The values thresholds are checked against, in the units of {@link Threshold.limit}. */
export type ThresholdValues = Record<ThresholdMetric, number>;

const LATENCY = new Set<ThresholdMetric>(['p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'mean']);
const SHARE = new Set<ThresholdMetric>(['errors', 'dropped', 'behind']);
const ALIASES: Record<string, ThresholdMetric> = { 'p99.9': 'p99.9', p999: 'p99.9', med: 'p50', avg: 'mean', error: 'errors' };
const ABORT_SUFFIX = /\s*:\s*abort\s*$/i;
const EXPRESSION = /^\s*([a-z][a-z0-9.]*)\s*(<=|>=|<|>)\s*([0-9]*\.?[0-9]+)\s*(us|µs|ms|s|%|\/s)?\s*$/i;

function usage(expression: string, why: string): HarnessError {
  return new HarnessError('LOAD_CONFIG', `threshold "${expression}": ${why}`, {
    field: '--threshold',
    hint: "Write e.g. --threshold 'p99<50ms' --threshold 'errors<0.1%:abort' --threshold 'rate>=450' (metrics: p50 p90 p95 p99 p99.9 max mean errors rate dropped behind).",
  });
}

export function parseThreshold(expression: string): Threshold {
  const abort = ABORT_SUFFIX.test(expression);
  const threshold = parseCondition(expression, expression.replace(ABORT_SUFFIX, ''));
  if (abort && !canAbort(threshold.metric)) {
    throw usage(expression, 'rate is the achieved rate of the whole run, checked at its end only: it cannot abort (a rate measured before the end is not the run\'s)');
  }
  return { ...threshold, abort };
}

/** `rate` is checked at the end only: mid-run, requests still in flight make the rate so far look low. */
export function canAbort(metric: ThresholdMetric): boolean {
  return metric !== 'rate';
}

function parseCondition(expression: string, condition: string): Omit<Threshold, 'abort'> {
  const match = EXPRESSION.exec(condition);
  if (!match) throw usage(expression, 'not of the form <metric><op><value>[:abort]');
  const name = match[1].toLowerCase();
  const metric = (ALIASES[name] ?? name) as ThresholdMetric;
  const op = match[2] as ThresholdOp;
  const value = Number(match[3]);
  const unit = match[4]?.toLowerCase();
  if (LATENCY.has(metric)) {
    if (unit === '%' || unit === '/s') throw usage(expression, `${metric} is a latency; use us, ms or s`);
    const scale = unit === 's' ? 1000 : unit === 'us' || unit === 'µs' ? 0.001 : 1;
    return { expression, metric, op, limit: value * scale };
  }
  if (SHARE.has(metric)) {
    if (unit !== undefined && unit !== '%') throw usage(expression, `${metric} is a share; write a percentage (0.1%) or a fraction (0.001)`);
    const limit = unit === '%' ? value / 100 : value;
    if (limit > 1) throw usage(expression, `${metric} is a share of at most 100%`);
    return { expression, metric, op, limit };
  }
  if (metric === 'rate') {
    if (unit !== undefined && unit !== '/s') throw usage(expression, 'rate is requests per second');
    return { expression, metric, op, limit: value };
  }
  throw usage(expression, `unknown metric "${match[1]}"`);
}

export function evaluateThresholds(thresholds: readonly Threshold[], values: ThresholdValues): ThresholdResult[] {
  return thresholds.map((threshold) => {
    const actual = values[threshold.metric];
    return { ...threshold, actual, ok: compare(actual, threshold.op, threshold.limit) };
  });
}

function compare(actual: number, op: ThresholdOp, limit: number): boolean {
  // NaN (no data, e.g. no request answered) never passes: a threshold must not hold by default.
  if (Number.isNaN(actual)) return false;
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
  }
}
