/**
 * The HTML report: one self-contained page (inline CSS and SVG, no script, no network) with the figures,
 * latency over time, throughput over time and the latency distribution (percentile spectrum).
 */
import { ERROR_SAMPLE_BODY_BYTES, ERROR_SAMPLES_PER_KIND } from './error-samples.js';
import { describeInterruption } from './interruption.js';
import { describeAbort, describeDriver, thresholdActual } from './report-text.js';
import { formatMs } from './parse.js';
import type { LoadReport } from './report.js';
import { escapeXml as esc, lineChart } from './svg-chart.js';

/** x position of a percentile on the spectrum axis: log10(1 / (1 − p)), so 90, 99, 99.9 are evenly spaced. */
function spectrumX(percentile: number): number {
  const p = Math.min(percentile, 99.999) / 100;
  return Math.log10(1 / (1 - p));
}

const SPECTRUM_TICKS: Array<[number, string]> = [
  [0, '0%'],
  [1, '90%'],
  [2, '99%'],
  [3, '99.9%'],
  [4, '99.99%'],
  [5, '99.999%'],
];

function row(label: string, value: string): string {
  return `<tr><th>${esc(label)}</th><td>${esc(value)}</td></tr>`;
}

export function renderHtmlReport(report: LoadReport): string {
  const c = report.counts;
  const l = report.latencyMs;
  const t = report.timeline;
  const latencyChart = lineChart({
    title: 'Latency over time (from intended send time)',
    xLabel: 'seconds since start',
    yLabel: 'ms',
    series: [
      { name: 'p50', color: '#2b7bb9', points: t.map((r) => [r.t, r.completed ? r.p50 : NaN]) },
      { name: 'p99', color: '#d9534f', points: t.map((r) => [r.t, r.completed ? r.p99 : NaN]) },
      { name: 'max', color: '#999999', points: t.map((r) => [r.t, r.completed ? r.max : NaN]), dashed: true },
    ],
  });
  const throughputChart = lineChart({
    title: 'Throughput over time',
    xLabel: 'seconds since start',
    yLabel: 'requests / s',
    series: [
      { name: 'completed', color: '#2b7bb9', points: t.map((r) => [r.t, r.completed / Math.max(r.seconds, 0.001)]) },
      { name: 'errors', color: '#d9534f', points: t.map((r) => [r.t, r.errors / Math.max(r.seconds, 0.001)]) },
      // Drawn last, dashed, so it stays visible where the target keeps up and the lines coincide.
      { name: 'asked', color: '#555555', points: t.map((r) => [r.t, r.asked / Math.max(r.seconds, 0.001)]), dashed: true },
    ],
  });
  const distributionChart = lineChart({
    title: 'Latency distribution (percentile spectrum)',
    xLabel: 'percentile',
    yLabel: 'ms',
    xTicks: SPECTRUM_TICKS,
    series: [{ name: 'latency', color: '#5b3fa0', points: report.distribution.map(([p, ms]) => [spectrumX(p), ms]) }],
  });
  const statuses = Object.entries(c.statuses)
    .map(([s, n]) => `<tr><th>${esc(s)}</th><td>${n}</td><td>${s === report.expectedStatus ? 'expected' : 'unexpected'}</td></tr>`)
    .concat(Object.entries(c.failures).map(([code, n]) => `<tr><th>${esc(code)}</th><td>${n}</td><td>transport failure</td></tr>`))
    .join('');
  const thresholds = report.thresholds.length
    ? `<h2>Thresholds</h2><table>${report.thresholds
        .map((th) => `<tr class="${th.ok ? 'ok' : 'fail'}"><th>${esc(th.expression)}</th><td>${th.ok ? 'held' : 'CROSSED'}</td><td>actual ${esc(thresholdActual(th.metric, th.actual))}</td></tr>`)
        .join('')}</table>`
    : '';
  // The first answers of each error kind, redacted and cut (error-samples.ts): escaped for HTML, and the
  // control characters a target may send shown as \xNN rather than passed to the page.
  const samples = report.errorSamples.length
    ? `<h2>Error samples</h2><p class="sub">The first ${ERROR_SAMPLES_PER_KIND} answers of each kind; bodies redacted, cut at ${ERROR_SAMPLE_BODY_BYTES} bytes.</p><table class="samples">${report.errorSamples
        .map((sample) => `<tr><th>${esc(sample.kind)}</th><td>${sample.body === undefined ? '(no body)' : `<pre>${esc(visibleControls(sample.body))}${sample.truncated ? ' …' : ''}</pre>`}</td></tr>`)
        .join('')}</table>`
    : '';
  const config = report.config;
  const plan = config.stages
    ? config.stages.map((s) => `${s.durationMs / 1000}s→${s.target}/s`).join(', ')
    : `${config.rate}/s for ${(config.durationMs ?? 0) / 1000} s`;
  const details = Object.entries(report.details).map(([k, v]) => row(k, String(v))).join('');
  const verdict = report.thresholds.length === 0 ? '' : report.passed ? '<p class="verdict ok">All thresholds held.</p>' : '<p class="verdict fail">A threshold was crossed.</p>';

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(`load ${report.scenario} · ${report.target.name}`)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:820px;color:#222}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse;margin:4px 0}th,td{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid #eee}th{font-weight:600}
.sub{color:#666;margin:0 0 12px}.ok td:nth-child(2){color:#2a7a2a}.fail td:nth-child(2){color:#c0392b;font-weight:600}
.verdict{font-weight:600}.verdict.ok{color:#2a7a2a}.verdict.fail{color:#c0392b}.warn{color:#b36b00;font-weight:600}
svg{display:block;margin:8px 0 16px}svg .title{font-size:13px;font-weight:600}svg .tick,svg .legend{font-size:11px;fill:#555}
svg .label{font-size:11px;fill:#333}svg .grid{stroke:#eee}svg .axis{stroke:#999}
.samples th{white-space:nowrap;vertical-align:top}.samples pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px}
</style></head><body>
<h1>${esc(report.scenario)} → ${esc(report.target.name)}</h1>
<p class="sub">${esc(report.target.baseUrl)}${report.target.embedded ? ' (embedded reference)' : ''} · started ${esc(report.startedAt)} · ${report.elapsedSeconds.toFixed(1)} s · ${esc(report.tool)} ${esc(report.version)}</p>
${report.interruption ? `<p class="warn">${esc(describeInterruption(report.interruption))}.</p>` : report.interrupted ? '<p class="warn">Interrupted: partial results.</p>' : ''}${report.thresholdAbort ? `<p class="warn">Aborted: ${esc(describeAbort(report.thresholdAbort))}.</p>` : ''}${driverLine(report)}${verdict}
<h2>Figures</h2>
<table>
${row('asked rate', `${report.rates.askedPerSecond.toFixed(1)}/s (${plan})`)}
${row('achieved rate', `${report.rates.achievedPerSecond.toFixed(1)}/s completed · ${report.rates.sentPerSecond.toFixed(1)}/s sent`)}
${row('requests', `planned ${c.planned} · sent ${c.sent} · completed ${c.completed} · cancelled ${c.cancelled}`)}
${row('errors', `${c.errors} (${c.completed ? ((c.errors / c.completed) * 100).toFixed(3) : '-'} %), expected status ${report.expectedStatus}`)}
${row('dropped / behind schedule', `${c.dropped} dropped (max in flight ${config.maxInFlight}) · ${c.behindSchedule} sent > 5 ms late · send lag p99 ${formatMs(report.sendLagMs.p99)}`)}
${row('latency', `p50 ${formatMs(l.p50)} · p90 ${formatMs(l.p90)} · p99 ${formatMs(l.p99)} · p99.9 ${formatMs(l.p999)} · max ${formatMs(l.max)}`)}
${row('connections', String(config.connections))}
</table>
${thresholds}
<h2>Charts</h2>
${latencyChart}
${throughputChart}
${distributionChart}
<h2>Answers</h2>
<table><tr><th>status</th><th>count</th><th></th></tr>${statuses}</table>
${samples}
<h2>Scenario</h2>
<table>${details}</table>
<p class="sub">Latency is measured from each request's intended send time (open model), so time the target spent stalled counts for every request scheduled behind it. Percentiles come from HDR histograms (3 significant digits).</p>
</body></html>
`;
}

/** C0 controls and DEL as \xNN (tab and newline kept): a target's bytes never steer the page. */
function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The driver's load, when describeDriver has something to say; a warning when it was the bottleneck. */
function driverLine(report: LoadReport): string {
  const text = report.driver ? describeDriver(report.driver) : undefined;
  if (text === undefined) return '';
  return `<p class="${report.driver?.saturated ? 'warn' : 'sub'}">Driver: ${esc(text)}.</p>`;
}
