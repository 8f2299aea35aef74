// k6 `options` for one scenario: an arrival-rate executor (open model: k6 starts iterations on schedule
// whether or not earlier ones finished, so a slow target shows as latency and dropped iterations instead of
// silently lowering the rate), thresholds, tags. Pure: the scripts export what this returns.
import { plannedVUs } from './config.js';
import { parseStages, stagesIterations } from './duration.js';
import { segmentShare } from './segment.js';

/**
 * @typedef {import('./config.js').LoadConfig} LoadConfig
 */

/**
 * @typedef {object} OptionsInput
 * @property {string} scenario e.g. "webhook-hmac"; tags every request as `flow:<scenario>`
 * @property {LoadConfig} config
 * @property {boolean} [insecureSkipVerify]
 * @property {string} [stages] `30s:100,1m:500`: ramping-arrival-rate instead of constant
 * @property {boolean} [keepBodies] keep response bodies (token responses are checked)
 * @property {Record<string, string[]>} [extraThresholds]
 */

/**
 * A k6 scenario key: letters, digits and underscores only.
 * @param {string} scenario
 * @returns {string}
 */
export function scenarioKey(scenario) {
  return scenario.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * @typedef {object} BuiltOptions
 * @property {Record<string, any>} options what the script exports
 * @property {number} plannedIterations of the whole test
 * @property {number} instanceIterations this instance's share (its execution segment's)
 * @property {number} droppedBudget dropped iterations this instance may have
 */

/**
 * The dropped-iteration budget of one k6 process: its share of the planned iterations × the ratio, but
 * never below the floor, so that at low rates one pause of the process (a few arrivals) cannot cross it.
 * @param {number} instanceIterations
 * @param {import('./config.js').LoadConfig} config
 * @returns {number}
 */
export function droppedBudget(instanceIterations, config) {
  return Math.max(config.droppedFloor, Math.floor(instanceIterations * config.maxDroppedRatio));
}

/**
 * @param {OptionsInput} input
 * @returns {BuiltOptions}
 */
export function buildOptions(input) {
  const config = input.config;
  const key = scenarioKey(input.scenario);
  /** @type {Record<string, any>} */
  let executor;
  let planned = config.plannedIterations;
  if (input.stages) {
    const stages = parseStages(input.stages);
    planned = stagesIterations(stages, 0);
    let peak = 0;
    for (let i = 0; i < stages.length; i++) peak = Math.max(peak, stages[i].target);
    // VUs follow the peak rate, not RATE (which a ramp does not use), unless they were given.
    const vus = config.vusGiven ? { preAllocated: config.preAllocatedVUs, max: config.maxVUs } : plannedVUs(peak, config.p90Ms);
    executor = {
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      stages: stages.map(function (s) {
        return { duration: s.duration, target: s.target };
      }),
      preAllocatedVUs: vus.preAllocated,
      maxVUs: Math.max(vus.max, vus.preAllocated),
    };
  } else {
    executor = {
      executor: 'constant-arrival-rate',
      rate: config.rate,
      timeUnit: '1s',
      duration: config.duration,
      preAllocatedVUs: config.preAllocatedVUs,
      maxVUs: config.maxVUs,
    };
  }
  executor.tags = { flow: input.scenario };
  executor.gracefulStop = '30s';

  /** @type {Record<string, string[]>} */
  const thresholds = {};
  thresholds['http_req_duration{scenario:' + key + '}'] = ['p(90)<' + config.p90Ms, 'p(99)<' + config.p99Ms];
  thresholds.unexpected_responses = ['rate<' + config.maxErrorRate];
  // dropped_iterations: k6 could not start an iteration on time because every VU was busy. Counted per
  // process, so the budget is this instance's share (k6 splits iterations and VUs by segment alike).
  const instanceIterations = segmentShare(planned, config.segment);
  const budget = droppedBudget(instanceIterations, config);
  thresholds.dropped_iterations = ['count<=' + budget];
  const extra = input.extraThresholds || {};
  Object.keys(extra).forEach(function (name) {
    thresholds[name] = extra[name];
  });

  /** @type {Record<string, any>} */
  const scenarios = {};
  scenarios[key] = executor;
  /** @type {Record<string, any>} */
  const options = {
    scenarios: scenarios,
    thresholds: thresholds,
    insecureSkipTLSVerify: Boolean(input.insecureSkipVerify),
    discardResponseBodies: !input.keepBodies,
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(99)', 'p(99.9)'],
  };
  // k6's own options, set from the script so that k6 and the budgets above see the same segment.
  if (config.segment) options.executionSegment = config.segment.text;
  if (config.segmentSequence) options.executionSegmentSequence = config.segmentSequence;
  return { plannedIterations: planned, instanceIterations: instanceIterations, droppedBudget: budget, options: options };
}
