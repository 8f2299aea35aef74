// Hours at a constant rate: does the target still hold latency, memory-bound idempotency and its error rate
// long after warm-up? HMAC webhooks as in webhook-hmac.js, plus one in DUP_EVERY (default 100) iterations
// re-sending an event this VU sent earlier, which must still get 409.
//
//   k6 run -e PROFILE=$PWD/target.json -e RATE=50 -e DURATION=2h load/soak.js
//
// Live outputs (the driver's --metrics-listen, --stream, --abort-on-fail; docs/load.md, "k6 equivalents"):
//   -o experimental-prometheus-rw (K6_PROMETHEUS_RW_SERVER_URL=…/api/v1/write), --out json=k6-soak.json,
//   --out csv=k6-soak.csv; to stop early, a threshold of lib/options.js in the object form
//   { threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '10s' } (k6 exits 99).
import { check } from 'k6';
import crypto from 'k6/crypto';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { makeBodies } from './lib/body.js';
import { readConfig } from './lib/config.js';
import { buildOptions } from './lib/options.js';
import { hmacListener, parseProfile, profilePath, requireBodyWithinLimit } from './lib/profile.js';
import { runPlan, summaryOutputs } from './lib/summary.js';
import { uuidV4FromBytes } from './lib/uuid.js';
import { hmacRequestBuilder } from './lib/webhook.js';

const SCENARIO = 'soak';
const config = readConfig(__ENV, { rate: 50, duration: '2h', bodyBytes: 1024 });
const profile = parseProfile(open(profilePath(__ENV)));
const listener = hmacListener(profile, __ENV, __ENV.LISTENER || 'hmac');
const dupEvery = Number(__ENV.DUP_EVERY || 100);
if (!(dupEvery >= 2)) throw new Error('DUP_EVERY must be at least 2');
requireBodyWithinLimit(config.bodyBytes, profile);

const bodies = new SharedArray('soak-bodies', function () {
  return makeBodies(Number(__ENV.SEED || 1), 64, config.bodyBytes);
});

const built = buildOptions({
  scenario: SCENARIO,
  config: config,
  insecureSkipVerify: profile.insecureSkipVerify,
  extraThresholds: { duplicate_409: ['rate>=0.99'] },
});
export const options = built.options;

const unexpected = new Rate('unexpected_responses');
const duplicate409 = new Rate('duplicate_409');
/** The last event this VU had accepted: the one it re-sends on a duplicate iteration. */
let lastAccepted = '';

/**
 * @param {string} secret
 * @param {string} input
 */
function hmacBase64Url(secret, input) {
  return crypto.hmac('sha256', secret, input, 'base64rawurl');
}

const buildRequest = hmacRequestBuilder(profile, listener, hmacBase64Url);

export default function () {
  const n = exec.scenario.iterationInTest;
  const duplicate = lastAccepted !== '' && n % dupEvery === dupEvery - 1;
  const eventId = duplicate ? lastAccepted : uuidV4FromBytes(crypto.randomBytes(16));
  const req = buildRequest(eventId, bodies[n % bodies.length], Date.now());
  const res = http.post(req.url, req.body, {
    headers: req.headers,
    tags: { name: 'POST /api/v1/webhooks/incoming/{listener_id}', kind: duplicate ? 'duplicate' : 'new' },
  });
  const expected = duplicate ? 409 : 200;
  unexpected.add(res.status !== expected);
  if (duplicate) {
    duplicate409.add(res.status === 409);
    check(res, { 'duplicate refused (409)': function (r) { return r.status === 409; } });
  } else {
    if (res.status === 200) lastAccepted = eventId;
    check(res, { 'new event accepted (200)': function (r) { return r.status === 200; } });
  }
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO, config.summaryDir, runPlan(built, config, exec.test.options.executionSegment));
}
