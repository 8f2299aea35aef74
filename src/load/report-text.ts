/** Console output of `load`: the progress line each second and the final summary (stderr / stdout). */
import { ERROR_SAMPLE_BODY_BYTES, ERROR_SAMPLES_PER_KIND } from './error-samples.js';
import type { ThresholdAbort } from './abort.js';
import { describeInterruption } from './interruption.js';
import { parseThreshold, type ThresholdMetric } from './thresholds.js';
import { formatMs } from './parse.js';
import type { DriverLoad, LoadReport } from './report.js';
import type { IntervalRow } from './stats.js';

export function progressLine(row: IntervalRow, state: { inFlight: number; elapsedMs: number }): string {
  const seconds = Math.max(row.seconds, 0.001);
  const rate = row.completed / seconds;
  const asked = row.asked / seconds;
  const t = `${Math.round(state.elapsedMs / 1000)}s`.padStart(5);
  const errors = row.errors > 0 ? `errors ${row.errors} (${((row.errors / Math.max(row.completed, 1)) * 100).toFixed(1)}%)` : 'errors 0';
  const dropped = row.dropped > 0 ? `  dropped ${row.dropped}` : '';
  return `[${t}] ${rate.toFixed(0).padStart(6)}/s (asked ${asked.toFixed(0)})  p99 ${formatMs(row.p99).padStart(8)}  ${errors}  in flight ${state.inFlight}${dropped}\n`;
}

function pct(n: number, of: number): string {
  return of > 0 ? `${((n / of) * 100).toFixed(3)} %` : '-';
}

/** The error samples, each body on one line: JSON-quoted, so a target's control characters cannot reach the terminal. */
function sampleLines(report: LoadReport): string[] {
  if (report.errorSamples.length === 0) return [];
  const lines = [`  error samples (the first ${ERROR_SAMPLES_PER_KIND} of each kind; bodies redacted, cut at ${ERROR_SAMPLE_BODY_BYTES} bytes)`];
  for (const sample of report.errorSamples) {
    const body = sample.body === undefined ? '(no body)' : `${JSON.stringify(sample.body)}${sample.truncated ? ' …' : ''}`;
    lines.push(`    ${sample.kind}: ${body}`);
  }
  return lines;
}

/** A threshold's value in its unit: a share in %, a rate per second, a latency in ms (console and HTML page). */
export function thresholdActual(metric: ThresholdMetric, actual: number): string {
  if (metric === 'errors' || metric === 'dropped' || metric === 'behind') return `${(actual * 100).toFixed(3)} %`;
  return metric === 'rate' ? `${actual.toFixed(1)}/s` : formatMs(actual);
}

/** What stopped the run early, for the console and the HTML page. */
export function describeAbort(abort: ThresholdAbort): string {
  const metric = parseThreshold(abort.threshold).metric;
  return `threshold ${abort.threshold} crossed at ${abort.atSeconds.toFixed(1)} s (actual ${thresholdActual(metric, abort.actual)}; grace ${abort.graceSeconds} s): the run stopped early`;
}

/**
 * The driver's own load, said when it matters: several threads, or a driver that set the pace (so nobody
 * takes its limit for the target's). Console and HTML page alike.
 */
export function describeDriver(driver: DriverLoad): string | undefined {
  if (driver.workers === 1 && !driver.saturated) return undefined;
  const busy = driver.busy.map((b) => `${Math.round(b * 100)} %`).join(' / ');
  const threads = `${driver.workers} sending thread${driver.workers === 1 ? '' : 's'}, busy ${busy} while sending`;
  return driver.saturated
    ? `${threads}: THE DRIVER WAS THE BOTTLENECK (saturated, and arrivals went out late): the rates above are the driver's limit, not the target's; give it more --workers or another machine`
    : threads;
}

/**
 * The run's summary; `written` names the report files that were written (report-writer.ts's WrittenReport
 * is one: only its file names are read here, and report-writer.ts reaches this file through the HTML page).
 */
export function summaryText(report: LoadReport, written?: { json?: string; html?: string }): string {
  const c = report.counts;
  const l = report.latencyMs;
  const lines: string[] = [];
  const where = report.target.embedded ? ' (embedded reference)' : '';
  lines.push(`access-conformance load · ${report.scenario} → ${report.target.baseUrl}${where}`);
  if (report.interruption) lines.push(`  INTERRUPTED: ${describeInterruption(report.interruption)}`);
  else if (report.interrupted) lines.push('  INTERRUPTED: partial results');
  if (report.stopReason === 'max-requests') lines.push(`  stopped at --max-requests ${report.config.maxRequests}`);
  if (report.stopReason === 'source-exhausted') lines.push('  stopped: the request source (corpus) ran out');
  if (report.thresholdAbort) lines.push(`  ABORTED: ${describeAbort(report.thresholdAbort)}`);
  lines.push(
    `  rate       asked ${report.rates.askedPerSecond.toFixed(1)}/s · achieved ${report.rates.achievedPerSecond.toFixed(1)}/s over ${report.elapsedSeconds.toFixed(1)} s`,
  );
  lines.push(`  requests   planned ${c.planned} · sent ${c.sent} · completed ${c.completed}${c.cancelled ? ` · cancelled ${c.cancelled}` : ''}`);
  const statuses = Object.entries(c.statuses).map(([s, n]) => `${s}: ${n}`);
  const failures = Object.entries(c.failures).map(([code, n]) => `${code}: ${n}`);
  lines.push(`  answers    ${[...statuses, ...failures].join(' · ') || 'none'} (expected ${report.expectedStatus})`);
  lines.push(`  errors     ${c.errors} (${pct(c.errors, c.completed)}) · dropped ${c.dropped} · behind schedule ${c.behindSchedule} (send lag p99 ${formatMs(report.sendLagMs.p99)})`);
  if (c.starved > 0) lines.push(`  starved    the sender waited ${c.starved} times for signed requests`);
  const driver = report.driver ? describeDriver(report.driver) : undefined;
  if (driver !== undefined) lines.push(`  driver     ${driver}`);
  lines.push(`  latency    p50 ${formatMs(l.p50)} · p90 ${formatMs(l.p90)} · p99 ${formatMs(l.p99)} · p99.9 ${formatMs(l.p999)} · max ${formatMs(l.max)}`);
  for (const t of report.thresholds) {
    if (Number.isNaN(t.actual)) {
      // No request was answered: nothing to compare. An interrupted run's thresholds were never evaluated.
      const why = report.interrupted ? 'not evaluated: interrupted before any request was answered' : 'no data: no request was answered';
      lines.push(`  threshold  ${report.interrupted ? 'n/a ' : 'FAIL'} ${t.expression} (${why})`);
      continue;
    }
    lines.push(`  threshold  ${t.ok ? 'ok  ' : 'FAIL'} ${t.expression} (actual ${thresholdActual(t.metric, t.actual)})`);
  }
  if (typeof report.details.targetClock === 'string') lines.push(`  clock      the target's time is local time ${report.details.targetClock}; every timestamp and JWT was built from it`);
  lines.push(...sampleLines(report));
  const files = [written?.json, written?.html].filter((file) => file !== undefined);
  if (files.length > 0) lines.push(`  reports    ${files.join(' · ')}`);
  return `${lines.join('\n')}\n`;
}
