// handleSummary outputs: a short text for stdout, the raw summary JSON and JUnit XML under SUMMARY_DIR.
// Defining handleSummary replaces k6's own end-of-test text, so this writes a compact one. Pure.
import { collectChecks, thresholdValue, toJUnit } from './junit.js';

/**
 * @typedef {import('./junit.js').SummaryData} SummaryData
 */

/**
 * @param {number | undefined} ms
 * @returns {string}
 */
function ms(ms) {
  if (ms === undefined) return '-';
  return ms >= 1000 ? (ms / 1000).toFixed(2) + 's' : ms.toFixed(2) + 'ms';
}

/**
 * @param {SummaryData} data
 * @param {string} scenario
 * @returns {string}
 */
export function textSummary(data, scenario) {
  const m = data.metrics;
  /** @type {string[]} */
  const lines = ['', 'access-conformance k6 ' + scenario];
  const reqs = m.http_reqs;
  if (reqs) lines.push('  requests      ' + reqs.values.count + ' (' + (reqs.values.rate || 0).toFixed(1) + '/s)');
  const duration = m.http_req_duration;
  if (duration) {
    const v = duration.values;
    lines.push(
      '  latency       p50 ' + ms(v.med) + '  p90 ' + ms(v['p(90)']) + '  p99 ' + ms(v['p(99)']) + '  p99.9 ' + ms(v['p(99.9)']) + '  max ' + ms(v.max),
    );
  }
  const unexpected = m.unexpected_responses;
  if (unexpected) lines.push('  unexpected    ' + ((unexpected.values.rate || 0) * 100).toFixed(3) + '% of answers');
  const dropped = m.dropped_iterations;
  lines.push('  dropped       ' + (dropped ? dropped.values.count : 0) + ' iterations');
  const checks = collectChecks(data.root_group, []);
  checks.forEach(function (check) {
    lines.push('  check         ' + (check.fails === 0 ? 'ok   ' : 'FAIL ') + check.name + ' (' + check.passes + '/' + (check.passes + check.fails) + ')');
  });
  let crossed = 0;
  Object.keys(m)
    .sort()
    .forEach(function (name) {
      const thresholds = m[name].thresholds || {};
      Object.keys(thresholds).forEach(function (expression) {
        const ok = thresholds[expression].ok;
        if (!ok) crossed++;
        const value = thresholdValue(m[name], expression);
        lines.push('  threshold     ' + (ok ? 'ok   ' : 'FAIL ') + name + ' ' + expression + (value === undefined ? '' : '  (' + Math.round(value * 1000) / 1000 + ')'));
      });
    });
  lines.push(crossed === 0 ? '  result        all thresholds held' : '  result        ' + crossed + ' threshold(s) crossed');
  return lines.join('\n') + '\n';
}

/**
 * What handleSummary returns: file name → content ("stdout" prints).
 * @param {SummaryData} data
 * @param {string} scenario
 * @param {string} dir
 * @returns {Record<string, string>}
 */
export function summaryOutputs(data, scenario, dir) {
  const base = dir.replace(/\/+$/, '') + '/k6-' + scenario;
  /** @type {Record<string, string>} */
  const out = { stdout: textSummary(data, scenario) };
  out[base + '-summary.json'] = JSON.stringify(data, null, 2);
  out[base + '-junit.xml'] = toJUnit(data, 'k6 ' + scenario);
  return out;
}
