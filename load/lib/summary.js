// handleSummary outputs: a short text for stdout, the raw summary JSON and JUnit XML under SUMMARY_DIR.
// Defining handleSummary replaces k6's own end-of-test text, so this writes a compact one. Pure.
import { collectChecks, thresholdValue, toJUnit } from './junit.js';
import { segmentMismatch } from './segment.js';

/**
 * @typedef {import('./junit.js').SummaryData} SummaryData
 */

/**
 * What the script planned, next to k6's figures in the summary JSON (`accessConformance`) and text.
 * @typedef {object} RunPlan
 * @property {number} plannedIterations whole test
 * @property {number} instanceIterations this instance's share
 * @property {number} droppedBudget
 * @property {string | null} segment the segment the budgets were scaled for (null: whole test)
 * @property {string | null} runningSegment the segment k6 ran (exec.test.options.executionSegment)
 * @property {string} [warning] set when they differ
 */

/**
 * @param {{plannedIterations: number, instanceIterations: number, droppedBudget: number}} built buildOptions' result
 * @param {import('./config.js').LoadConfig} config
 * @param {string | null | undefined} running `exec.test.options.executionSegment` (readable in handleSummary)
 * @returns {RunPlan}
 */
export function runPlan(built, config, running) {
  /** @type {RunPlan} */
  const plan = {
    plannedIterations: built.plannedIterations,
    instanceIterations: built.instanceIterations,
    droppedBudget: built.droppedBudget,
    segment: config.segment ? config.segment.text : null,
    runningSegment: running ? String(running) : null,
  };
  const warning = segmentMismatch(config.segment, running);
  if (warning) plan.warning = warning;
  return plan;
}

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
 * @param {RunPlan} [plan]
 * @returns {string}
 */
export function textSummary(data, scenario, plan) {
  const m = data.metrics;
  /** @type {string[]} */
  const lines = ['', 'access-conformance k6 ' + scenario];
  if (plan) {
    const share = plan.segment ? ' (this instance, segment ' + plan.segment + ': ' + plan.instanceIterations + ')' : '';
    lines.push('  planned       ' + plan.plannedIterations + ' iterations' + share);
  }
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
  const droppedCount = dropped ? dropped.values.count : 0;
  const budget = plan ? ' (budget ' + plan.droppedBudget + ')' : '';
  lines.push('  dropped       ' + droppedCount + ' iterations' + budget);
  if (droppedCount > 0 && plan && droppedCount <= plan.droppedBudget) {
    lines.push('  warning       ' + droppedCount + ' iterations were not started on time: k6 had no idle VU (raise PREALLOCATED_VUS if this recurs)');
  }
  if (plan && plan.warning) lines.push('  warning       ' + plan.warning);
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
 * What handleSummary returns: file name → content ("stdout" prints). The JSON is k6's summary data with
 * the plan added as `accessConformance`.
 * @param {SummaryData} data
 * @param {string} scenario
 * @param {string} dir
 * @param {RunPlan} [plan]
 * @returns {Record<string, string>}
 */
export function summaryOutputs(data, scenario, dir, plan) {
  const base = dir.replace(/\/+$/, '') + '/k6-' + scenario;
  /** @type {Record<string, string>} */
  const out = { stdout: textSummary(data, scenario, plan) };
  /** @type {Record<string, unknown>} */
  const json = {};
  Object.keys(data).forEach(function (key) {
    json[key] = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (data))[key];
  });
  if (plan) json.accessConformance = plan;
  out[base + '-summary.json'] = JSON.stringify(json, null, 2);
  out[base + '-junit.xml'] = toJUnit(data, 'k6 ' + scenario);
  return out;
}
