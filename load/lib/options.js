// k6 `options` for one scenario: an arrival-rate executor (open model: k6 starts iterations on schedule
// whether or not earlier ones finished, so a slow target shows as latency and dropped iterations instead of
// silently lowering the rate), thresholds, tags. Pure: the scripts export what this returns.
import { parseStages, stagesIterations } from './duration.js';

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
 * @param {OptionsInput} input
 * @returns {{options: Record<string, any>, plannedIterations: number}}
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
    executor = {
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      stages: stages.map(function (s) {
        return { duration: s.duration, target: s.target };
      }),
      preAllocatedVUs: config.preAllocatedVUs,
      maxVUs: Math.max(config.maxVUs, Math.ceil(peak * 2)),
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
  // dropped_iterations: k6 could not start an iteration on time because every VU was busy.
  thresholds.dropped_iterations = ['count<=' + Math.floor(planned * config.maxDroppedRatio)];
  const extra = input.extraThresholds || {};
  Object.keys(extra).forEach(function (name) {
    thresholds[name] = extra[name];
  });

  /** @type {Record<string, any>} */
  const scenarios = {};
  scenarios[key] = executor;
  return {
    plannedIterations: planned,
    options: {
      scenarios: scenarios,
      thresholds: thresholds,
      insecureSkipTLSVerify: Boolean(input.insecureSkipVerify),
      discardResponseBodies: !input.keepBodies,
      summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(99)', 'p(99.9)'],
    },
  };
}
