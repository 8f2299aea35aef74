// The scripts' -e inputs, checked once at init so a typo stops the run with a message instead of a
// silently different test. Pure: `env` is k6's __ENV in the scripts and a plain object in tests.
import { parseDuration } from './duration.js';

/**
 * @typedef {object} ScriptDefaults
 * @property {number} rate requests per second
 * @property {string} duration k6 duration
 * @property {number} bodyBytes
 */

/**
 * @typedef {object} LoadConfig
 * @property {number} rate requests per second (arrival rate)
 * @property {string} duration as given, k6 syntax
 * @property {number} durationSeconds
 * @property {number} bodyBytes
 * @property {number} preAllocatedVUs
 * @property {number} maxVUs
 * @property {number} p90Ms threshold on p(90) of http_req_duration
 * @property {number} p99Ms threshold on p(99)
 * @property {number} maxErrorRate largest accepted share of unexpected answers (0..1)
 * @property {number} maxDroppedRatio largest accepted share of dropped iterations (0..1)
 * @property {number} plannedIterations rate × duration
 * @property {string} summaryDir where handleSummary writes its files
 */

/** @type {ScriptDefaults} */
export const HOT_PATH_DEFAULTS = { rate: 100, duration: '1m', bodyBytes: 1024 };

/**
 * @param {Record<string, string | undefined>} env
 * @param {ScriptDefaults} defaults
 * @returns {LoadConfig}
 */
export function readConfig(env, defaults) {
  const rate = intInput(env, 'RATE', defaults.rate, 1);
  const duration = env.DURATION || defaults.duration;
  const durationSeconds = parseDuration(duration);
  const bodyBytes = intInput(env, 'BODY_BYTES', defaults.bodyBytes, 2);
  // An open model needs enough VUs for rate × latency in flight; start with a second's worth of 50 ms calls.
  const preAllocatedVUs = intInput(env, 'PREALLOCATED_VUS', Math.max(2, Math.ceil(rate / 20)), 1);
  const maxVUs = intInput(env, 'MAX_VUS', Math.max(preAllocatedVUs, rate * 2), preAllocatedVUs);
  return {
    rate,
    duration,
    durationSeconds,
    bodyBytes,
    preAllocatedVUs,
    maxVUs,
    p90Ms: numberInput(env, 'P90_MS', 200),
    p99Ms: numberInput(env, 'P99_MS', 500),
    maxErrorRate: ratioInput(env, 'MAX_ERROR_RATE', 0.01),
    maxDroppedRatio: ratioInput(env, 'MAX_DROPPED_RATIO', 0.01),
    plannedIterations: Math.ceil(rate * durationSeconds),
    // k6 (before some versions) does not create directories for handleSummary files, so default to the cwd.
    summaryDir: env.SUMMARY_DIR || '.',
  };
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 */
function intInput(env, name, fallback, min) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error('-e ' + name + '=' + raw + ' must be a whole number of at least ' + min);
  }
  return value;
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 */
function numberInput(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error('-e ' + name + '=' + raw + ' must be a positive number');
  return value;
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 */
function ratioInput(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value >= 0 && value <= 1)) throw new Error('-e ' + name + '=' + raw + ' must be a share between 0 and 1');
  return value;
}
