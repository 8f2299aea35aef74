// The webhook hot path: HMAC-signed inbound webhooks at an arrival rate (open model).
//
//   k6 run -e PROFILE=$PWD/target.json -e RATE=200 -e DURATION=2m -e BODY_BYTES=1024 load/webhook-hmac.js
//
// Each iteration: a fresh UUID v4 event ID, the current Unix time, one of 64 pre-generated faker-shaped
// bodies of exactly BODY_BYTES, and `Webhook-Signature` = HMAC-SHA256 (k6/crypto, base64rawurl = base64url
// without padding) of `<timestamp>.<event_id>.<body>` keyed with the listener secret's UTF-8 bytes.
// Optional -e STAGES=30s:100,1m:500 ramps instead (ramping-arrival-rate). Plain ES2017 for k6 v0.48+.
//
// Live outputs (the driver's --metrics-listen, --stream, --abort-on-fail; docs/load.md, "k6 equivalents"):
//   -o experimental-prometheus-rw (K6_PROMETHEUS_RW_SERVER_URL=…/api/v1/write), --out json=k6-webhook-hmac.json,
//   --out csv=k6-webhook-hmac.csv; to stop early, a threshold of lib/options.js in the object form
//   { threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '10s' } (k6 exits 99).
import { check } from 'k6';
import crypto from 'k6/crypto';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { makeBodies } from './lib/body.js';
import { HOT_PATH_DEFAULTS, readConfig } from './lib/config.js';
import { buildOptions } from './lib/options.js';
import { hmacListener, parseProfile, profilePath, requireBodyWithinLimit } from './lib/profile.js';
import { runPlan, summaryOutputs } from './lib/summary.js';
import { uuidV4FromBytes } from './lib/uuid.js';
import { hmacRequestBuilder } from './lib/webhook.js';

const SCENARIO = 'webhook-hmac';
const config = readConfig(__ENV, HOT_PATH_DEFAULTS);
const profile = parseProfile(open(profilePath(__ENV)));
const listener = hmacListener(profile, __ENV, __ENV.LISTENER || 'hmac');
requireBodyWithinLimit(config.bodyBytes, profile);

// Generated once and shared by every VU (SharedArray), seeded so runs are comparable.
const bodies = new SharedArray('webhook-bodies', function () {
  return makeBodies(Number(__ENV.SEED || 1), 64, config.bodyBytes);
});

const built = buildOptions({
  scenario: SCENARIO,
  config: config,
  insecureSkipVerify: profile.insecureSkipVerify,
  stages: __ENV.STAGES,
});
export const options = built.options;

const unexpected = new Rate('unexpected_responses');

/**
 * @param {string} secret
 * @param {string} input
 */
function hmacBase64Url(secret, input) {
  return crypto.hmac('sha256', secret, input, 'base64rawurl');
}

const buildRequest = hmacRequestBuilder(profile, listener, hmacBase64Url);

export default function () {
  const req = buildRequest(uuidV4FromBytes(crypto.randomBytes(16)), bodies[exec.scenario.iterationInTest % bodies.length], Date.now());
  const res = http.post(req.url, req.body, { headers: req.headers, tags: { name: 'POST /api/v1/webhooks/incoming/{listener_id}' } });
  unexpected.add(res.status !== 200);
  check(res, { 'new event accepted (200)': function (r) { return r.status === 200; } });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO, config.summaryDir, runPlan(built, config, exec.test.options.executionSegment));
}
