// The idempotency path: already-accepted event IDs sent again (service.md §6 rule 2, ruling 18). Each
// re-send is freshly timestamped and correctly signed, so it passes authentication and must be answered 409
// (authentication runs before the idempotency check, ruling 17).
//
//   k6 run -e PROFILE=$PWD/target.json -e RATE=200 -e DURATION=1m load/webhook-duplicates.js
//
// setup() sends DUP_POOL (default 50) new events and expects 200 for each; the scenario then re-sends those
// IDs round-robin. Thresholds: the share of 409 answers (MIN_409_SHARE, default 0.99) besides latency.
//
// Live outputs (the driver's --metrics-listen, --stream, --abort-on-fail; docs/load.md, "k6 equivalents"):
//   -o experimental-prometheus-rw (K6_PROMETHEUS_RW_SERVER_URL=…/api/v1/write), --out json=k6-webhook-duplicates.json,
//   --out csv=k6-webhook-duplicates.csv; to stop early, a threshold of lib/options.js in the object form
//   { threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '10s' } (k6 exits 99).
import { check } from 'k6';
import crypto from 'k6/crypto';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { makeBodies } from './lib/body.js';
import { HOT_PATH_DEFAULTS, readConfig } from './lib/config.js';
import { buildOptions } from './lib/options.js';
import { hmacListener, parseProfile, profilePath } from './lib/profile.js';
import { runPlan, summaryOutputs } from './lib/summary.js';
import { uuidV4FromBytes } from './lib/uuid.js';
import { hmacRequestBuilder } from './lib/webhook.js';

const SCENARIO = 'webhook-duplicates';
const config = readConfig(__ENV, HOT_PATH_DEFAULTS);
const profile = parseProfile(open(profilePath(__ENV)));
const listener = hmacListener(profile, __ENV, __ENV.LISTENER || 'hmac');
const poolSize = Number(__ENV.DUP_POOL || 50);
if (!(poolSize >= 1 && poolSize <= 10000)) throw new Error('DUP_POOL must be between 1 and 10000');
const min409 = Number(__ENV.MIN_409_SHARE || 0.99);
const bodies = makeBodies(Number(__ENV.SEED || 1), 8, Math.min(config.bodyBytes, profile.webhookBodyBytes));

const built = buildOptions({
  scenario: SCENARIO,
  config: config,
  insecureSkipVerify: profile.insecureSkipVerify,
  stages: __ENV.STAGES,
  extraThresholds: { duplicate_409: ['rate>=' + min409] },
});
export const options = built.options;

const unexpected = new Rate('unexpected_responses');
const duplicate409 = new Rate('duplicate_409');

/**
 * @param {string} secret
 * @param {string} input
 */
function hmacBase64Url(secret, input) {
  return crypto.hmac('sha256', secret, input, 'base64rawurl');
}

const buildRequest = hmacRequestBuilder(profile, listener, hmacBase64Url);

/**
 * @param {string} eventId
 * @param {number} n
 */
function send(eventId, n) {
  const req = buildRequest(eventId, bodies[n % bodies.length], Date.now());
  return http.post(req.url, req.body, { headers: req.headers, tags: { name: 'POST /api/v1/webhooks/incoming/{listener_id}' } });
}

export function setup() {
  /** @type {string[]} */
  const eventIds = [];
  for (let i = 0; i < poolSize; i++) {
    const eventId = uuidV4FromBytes(crypto.randomBytes(16));
    const res = send(eventId, i);
    if (res.status !== 200) {
      throw new Error('priming event ' + (i + 1) + ' of ' + poolSize + ' got ' + res.status + ' instead of 200; the duplicate run needs accepted events first');
    }
    eventIds.push(eventId);
  }
  return { eventIds: eventIds };
}

/** @param {{eventIds: string[]}} data */
export default function (data) {
  const n = exec.scenario.iterationInTest;
  const res = send(data.eventIds[n % data.eventIds.length], n);
  unexpected.add(res.status !== 409);
  duplicate409.add(res.status === 409);
  check(res, { 'duplicate refused (409)': function (r) { return r.status === 409; } });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO, config.summaryDir, runPlan(built, config, exec.test.options.executionSegment));
}
