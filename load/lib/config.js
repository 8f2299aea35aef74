// The scripts' -e inputs, checked once at init so a typo stops the run with a message instead of a
// silently different test. Pure: `env` is k6's __ENV in the scripts and a plain object in tests.
import { parseDuration } from './duration.js';
import { parseSegment } from './segment.js';

/**
 * A pause of the k6 process (a busy CI runner descheduling it, a GC) that the pre-allocated VUs absorb:
 * the arrivals due during the pause start at once when it ends, and each needs an idle VU or is dropped.
 */
export const PAUSE_HEADROOM_MS = 500;
/** Dropped iterations every k6 process may have before the budget's share applies (DROPPED_FLOOR). */
export const DEFAULT_DROPPED_FLOOR = 5;

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
 * @property {number} droppedFloor dropped iterations always allowed per k6 process
 * @property {boolean} vusGiven PREALLOCATED_VUS or MAX_VUS was given (not derived from the rate)
 * @property {import('./segment.js').Segment | null} segment EXECUTION_SEGMENT, or null for the whole test
 * @property {string | undefined} segmentSequence EXECUTION_SEGMENT_SEQUENCE
 * @property {number} plannedIterations rate × duration, of the whole test (every segment)
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
  const p90Ms = numberInput(env, 'P90_MS', 200);
  const vus = plannedVUs(rate, p90Ms);
  const preAllocatedVUs = intInput(env, 'PREALLOCATED_VUS', vus.preAllocated, 1);
  const maxVUs = intInput(env, 'MAX_VUS', Math.max(preAllocatedVUs, vus.max), preAllocatedVUs);
  const segmentText = env.EXECUTION_SEGMENT || '';
  const segment = segmentText === '' ? null : parseSegment(segmentText);
  if (env.EXECUTION_SEGMENT_SEQUENCE && !segment) throw new Error('-e EXECUTION_SEGMENT_SEQUENCE needs -e EXECUTION_SEGMENT too');
  return {
    rate,
    duration,
    durationSeconds,
    bodyBytes,
    preAllocatedVUs,
    maxVUs,
    p90Ms,
    p99Ms: numberInput(env, 'P99_MS', 500),
    maxErrorRate: ratioInput(env, 'MAX_ERROR_RATE', 0.01),
    maxDroppedRatio: ratioInput(env, 'MAX_DROPPED_RATIO', 0.01),
    droppedFloor: intInput(env, 'DROPPED_FLOOR', DEFAULT_DROPPED_FLOOR, 0),
    vusGiven: Boolean(env.PREALLOCATED_VUS || env.MAX_VUS),
    segment,
    segmentSequence: segment ? env.EXECUTION_SEGMENT_SEQUENCE || undefined : undefined,
    plannedIterations: Math.ceil(rate * durationSeconds),
    // k6 (before some versions) does not create directories for handleSummary files, so default to the cwd.
    summaryDir: env.SUMMARY_DIR || '.',
  };
}

/**
 * VUs for an arrival rate (k6's guidance: preAllocatedVUs ≈ rate × p95 latency, plus a margin). A target
 * answering at the p90 threshold keeps rate × p90 iterations in flight; a pause of the k6 process releases
 * rate × PAUSE_HEADROOM_MS of arrivals at once; two more for timer jitter. k6 adds VUs up to maxVUs when
 * these run out, but too late for the iterations due at that moment: those are dropped.
 * @param {number} rate
 * @param {number} p90Ms
 * @returns {{preAllocated: number, max: number}}
 */
export function plannedVUs(rate, p90Ms) {
  const preAllocated = Math.ceil((rate * (p90Ms + PAUSE_HEADROOM_MS)) / 1000) + 2;
  return { preAllocated: preAllocated, max: Math.max(preAllocated, Math.ceil(rate * 2)) };
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
