// JUnit XML from k6's handleSummary data, written here rather than imported from the k6-summary jslib so the
// scripts need no network at start. One test case per threshold and per check; a crossed threshold or a
// failing check is a <failure>. Pure.

/**
 * The parts of k6's summary data this module and summary.js read.
 * @typedef {object} SummaryMetric
 * @property {string} type trend | rate | counter | gauge
 * @property {string} [contains] time | data | default
 * @property {Record<string, number>} values
 * @property {Record<string, {ok: boolean}>} [thresholds]
 */

/**
 * @typedef {object} SummaryCheck
 * @property {string} name
 * @property {string} [path]
 * @property {number} passes
 * @property {number} fails
 */

/**
 * @typedef {object} SummaryGroup
 * @property {string} name
 * @property {string} [path]
 * @property {SummaryGroup[]} [groups]
 * @property {SummaryCheck[]} [checks]
 */

/**
 * @typedef {object} SummaryData
 * @property {Record<string, SummaryMetric>} metrics
 * @property {SummaryGroup} [root_group]
 * @property {{testRunDurationMs?: number}} [state]
 */

/**
 * @param {string} text
 * @returns {string}
 */
export function xmlEscape(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The value a threshold expression such as `p(99)<500` or `rate<0.01` looked at.
 * @param {SummaryMetric} metric
 * @param {string} expression
 * @returns {number | undefined}
 */
export function thresholdValue(metric, expression) {
  const match = /^\s*([a-z]+(?:\([\d.]+\))?)\s*(?:<=|>=|==|!=|<|>)/.exec(expression);
  if (!match) return undefined;
  const name = match[1] === 'p(50)' ? 'med' : match[1];
  return metric.values[name];
}

/**
 * @param {SummaryGroup | undefined} group
 * @param {SummaryCheck[]} into
 * @returns {SummaryCheck[]}
 */
export function collectChecks(group, into) {
  if (!group) return into;
  (group.checks || []).forEach(function (check) {
    into.push(check);
  });
  (group.groups || []).forEach(function (child) {
    collectChecks(child, into);
  });
  return into;
}

/**
 * @param {SummaryData} data
 * @param {string} suiteName e.g. "k6 webhook-hmac"
 * @returns {string}
 */
export function toJUnit(data, suiteName) {
  /** @type {string[]} */
  const thresholdCases = [];
  let thresholdFailures = 0;
  const metricNames = Object.keys(data.metrics).sort();
  metricNames.forEach(function (metricName) {
    const metric = data.metrics[metricName];
    const thresholds = metric.thresholds || {};
    Object.keys(thresholds).forEach(function (expression) {
      const ok = thresholds[expression].ok;
      let body = '';
      if (!ok) {
        thresholdFailures++;
        const value = thresholdValue(metric, expression);
        const message = metricName + ' ' + expression + ' crossed' + (value === undefined ? '' : ' (actual ' + round(value) + ')');
        body = '<failure message="' + xmlEscape(message) + '" type="threshold"/>';
      }
      thresholdCases.push(
        '    <testcase classname="' + xmlEscape(metricName) + '" name="' + xmlEscape(expression) + '">' + body + '</testcase>',
      );
    });
  });

  const checks = collectChecks(data.root_group, []);
  let checkFailures = 0;
  const checkCases = checks.map(function (check) {
    let body = '';
    if (check.fails > 0) {
      checkFailures++;
      body = '<failure message="' + xmlEscape(check.fails + ' of ' + (check.passes + check.fails) + ' failed') + '" type="check"/>';
    }
    return '    <testcase classname="checks" name="' + xmlEscape(check.name) + '">' + body + '</testcase>';
  });

  const seconds = data.state && data.state.testRunDurationMs ? round(data.state.testRunDurationMs / 1000) : 0;
  const tests = thresholdCases.length + checkCases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="' + xmlEscape(suiteName) + '" tests="' + tests + '" failures="' + (thresholdFailures + checkFailures) + '" time="' + seconds + '">',
    '  <testsuite name="thresholds" tests="' + thresholdCases.length + '" failures="' + thresholdFailures + '">',
    thresholdCases.join('\n'),
    '  </testsuite>',
    '  <testsuite name="checks" tests="' + checkCases.length + '" failures="' + checkFailures + '">',
    checkCases.join('\n'),
    '  </testsuite>',
    '</testsuites>',
    '',
  ]
    .filter(function (line) {
      return line !== '';
    })
    .join('\n') + '\n';
}

/** @param {number} value */
function round(value) {
  return Math.round(value * 1000) / 1000;
}
