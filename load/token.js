// The token endpoint under load, secret method (service.md §4.1): client_id and client_secret in a form
// body. k6 cannot sign the EdDSA client assertion; `access-conformance load --scenario token` can.
//
//   k6 run -e PROFILE=$PWD/target.json -e RATE=20 -e DURATION=1m load/token.js
//
// Live outputs (the driver's --metrics-listen, --stream, --abort-on-fail; docs/load.md, "k6 equivalents"):
//   -o experimental-prometheus-rw (K6_PROMETHEUS_RW_SERVER_URL=…/api/v1/write), --out json=k6-token.json,
//   --out csv=k6-token.csv; to stop early, a threshold of lib/options.js in the object form
//   { threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '10s' } (k6 exits 99).
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { readConfig } from './lib/config.js';
import { buildOptions } from './lib/options.js';
import { parseProfile, primaryCredential, profilePath } from './lib/profile.js';
import { runPlan, summaryOutputs } from './lib/summary.js';
import { buildTokenRequest, isTokenResponse } from './lib/token.js';

const SCENARIO = 'token';
const config = readConfig(__ENV, { rate: 20, duration: '1m', bodyBytes: 2 });
const profile = parseProfile(open(profilePath(__ENV)));
const credential = primaryCredential(profile, __ENV);

const built = buildOptions({
  scenario: SCENARIO,
  config: config,
  insecureSkipVerify: profile.insecureSkipVerify,
  stages: __ENV.STAGES,
  keepBodies: true,
});
export const options = built.options;

const unexpected = new Rate('unexpected_responses');
const req = buildTokenRequest({ baseUrl: profile.baseUrl, clientId: credential.clientId, clientSecret: credential.clientSecret });

export default function () {
  const res = http.post(req.url, req.body, { headers: req.headers, tags: { name: 'POST /auth/v1/token' } });
  const ok = res.status === 200 && isTokenResponse(/** @type {string} */ (res.body));
  unexpected.add(!ok);
  check(res, { 'token issued (200, Bearer, expires_in)': function () { return ok; } });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO, config.summaryDir, runPlan(built, config, exec.test.options.executionSegment));
}
