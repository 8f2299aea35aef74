// JWT-authenticated inbound webhooks replayed from a corpus that Node signed (k6 cannot sign EdDSA, and k6
// before its WebCrypto module cannot sign RS256/ES256 either):
//
//   npx access-conformance load prepare --scenario webhook-jwt --alg EdDSA --count 6000 --out corpus.json
//   k6 run -e CORPUS=$PWD/corpus.json -e RATE=50 -e DURATION=2m load/webhook-jwt.js
//
// The JWTs' exp is at most 10 minutes after signing (service.md §5.4), so the corpus is only good for a few
// minutes: setup() refuses to start when it has expired, when it expires before DURATION (+ margin) is
// over, or when it holds fewer requests than RATE × DURATION + 1, since each event ID can be sent only once.
// Webhook-Timestamp is not covered by the JWT and is set fresh on each send.
//
// Live outputs (the driver's --metrics-listen, --stream, --abort-on-fail; docs/load.md, "k6 equivalents"):
//   -o experimental-prometheus-rw (K6_PROMETHEUS_RW_SERVER_URL=…/api/v1/write), --out json=k6-webhook-jwt.json,
//   --out csv=k6-webhook-jwt.csv; to stop early, a threshold of lib/options.js in the object form
//   { threshold: 'p(99)<50', abortOnFail: true, delayAbortEval: '10s' } (k6 exits 99).
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import http from 'k6/http';
import { Rate } from 'k6/metrics';
import { HOT_PATH_DEFAULTS, readConfig } from './lib/config.js';
import { assertCorpus, checkCorpus } from './lib/corpus.js';
import { buildOptions } from './lib/options.js';
import { runPlan, summaryOutputs } from './lib/summary.js';
import { buildJwtRequest, webhookTimestamp } from './lib/webhook.js';

const SCENARIO = 'webhook-jwt';
const config = readConfig(__ENV, { rate: 20, duration: '2m', bodyBytes: HOT_PATH_DEFAULTS.bodyBytes });
const corpusPath = __ENV.CORPUS;
if (!corpusPath) throw new Error('Set -e CORPUS=/absolute/path/to/corpus.json (made by `access-conformance load prepare --scenario webhook-jwt`)');

// Three shared arrays, each filled once from the file (SharedArray callbacks run in the first VU only).
const meta = new SharedArray('jwt-corpus-meta', function () {
  const corpus = assertCorpus(JSON.parse(open(/** @type {string} */ (corpusPath))));
  return [{ url: corpus.url, alg: corpus.alg, createdAt: corpus.createdAt, notAfter: corpus.notAfter, count: corpus.count }];
})[0];
/** @type {string[]} */
const bodies = new SharedArray('jwt-corpus-bodies', function () {
  return /** @type {string[]} */ (JSON.parse(open(/** @type {string} */ (corpusPath))).bodies);
});
/** @type {import('./lib/corpus.js').CorpusEntry[]} */
const requests = new SharedArray('jwt-corpus-requests', function () {
  return /** @type {import('./lib/corpus.js').CorpusEntry[]} */ (JSON.parse(open(/** @type {string} */ (corpusPath))).requests);
});

const built = buildOptions({ scenario: SCENARIO, config: config, insecureSkipVerify: __ENV.INSECURE_SKIP_VERIFY === 'true' });
export const options = built.options;

const unexpected = new Rate('unexpected_responses');

export function setup() {
  const verdict = checkCorpus(meta, {
    now: Date.now() / 1000,
    durationSeconds: config.durationSeconds,
    // k6's constant-arrival-rate may start one more iteration at the very end (the tick at DURATION),
    // and each needs an unused entry. The whole test's count: every segment indexes the same corpus.
    iterations: built.plannedIterations + 1,
  });
  if (!verdict.ok) throw new Error('webhook-jwt will not start: ' + verdict.reason);
  console.log('webhook-jwt corpus: ' + meta.count + ' ' + meta.alg + ' requests to ' + meta.url + '; ' + verdict.window);
  return {};
}

export default function () {
  const n = exec.scenario.iterationInTest;
  if (n >= requests.length) {
    // Cannot happen after setup()'s count check, unless k6 runs more iterations than planned.
    unexpected.add(true);
    return;
  }
  const entry = requests[n];
  const req = buildJwtRequest({
    url: meta.url,
    eventId: entry.eventId,
    timestamp: webhookTimestamp(Date.now()),
    body: bodies[entry.body],
    jwt: entry.jwt,
  });
  const res = http.post(req.url, req.body, { headers: req.headers, tags: { name: 'POST /api/v1/webhooks/incoming/{listener_id}', alg: meta.alg } });
  unexpected.add(res.status !== 200);
  check(res, { 'signed event accepted (200)': function (r) { return r.status === 200; } });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO, config.summaryDir, runPlan(built, config, exec.test.options.executionSegment));
}
