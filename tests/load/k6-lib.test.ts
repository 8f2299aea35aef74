/**
 * The k6 scripts' request-building modules (load/lib/), run in Node with node:crypto injected where the
 * scripts inject k6/crypto, and checked against the reference implementation: their HMAC requests get 200
 * and a re-sent event ID 409, a body of exactly the limit is accepted, their token request gets a token,
 * and a corpus signed by `load prepare` replays with 200s.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProfileJwksServers } from '../../src/client/index.js';
import { hmacSign } from '../../src/crypto/hmac.js';
import { isUuidV4 } from '../../src/crypto/uuid.js';
import { prepareCorpus } from '../../src/load/corpus.js';
import { parseDurationMs } from '../../src/load/parse.js';
import { loadProfile } from '../../src/profile/index.js';
import type { ResolvedProfile } from '../../src/profile/types.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import {
  k6lib,
  type BodyLib,
  type ConfigLib,
  type CorpusLib,
  type DurationLib,
  type JunitLib,
  type SummaryData,
  type SummaryLib,
  type OptionsLib,
  type ProfileLib,
  type TokenLib,
  type UuidLib,
  type WebhookLib,
} from './support/k6-lib.js';

/** What load/webhook-hmac.js does with k6/crypto: hmac('sha256', secret, input, 'base64rawurl'). */
const nodeHmac = (secret: string, input: string): string => createHmac('sha256', secret).update(input, 'utf8').digest('base64url');

const webhook = await k6lib<WebhookLib>('webhook');
const uuid = await k6lib<UuidLib>('uuid');
const bodies = await k6lib<BodyLib>('body');
const profiles = await k6lib<ProfileLib>('profile');
const token = await k6lib<TokenLib>('token');
const corpusLib = await k6lib<CorpusLib>('corpus');
const config = await k6lib<ConfigLib>('config');
const duration = await k6lib<DurationLib>('duration');
const options = await k6lib<OptionsLib>('options');
const junit = await k6lib<JunitLib>('junit');
const summary = await k6lib<SummaryLib>('summary');

/** The shape k6 hands to handleSummary, trimmed to what the modules read. */
const SUMMARY: SummaryData = {
  metrics: {
    http_reqs: { type: 'counter', contains: 'default', values: { count: 6000, rate: 199.8 } },
    http_req_duration: {
      type: 'trend',
      contains: 'time',
      values: { avg: 4.1, min: 0.6, med: 2.2, max: 310, 'p(90)': 8.4, 'p(99)': 61.5, 'p(99.9)': 250 },
      thresholds: { 'p(90)<200': { ok: true } },
    },
    'http_req_duration{scenario:webhook_hmac}': { type: 'trend', contains: 'time', values: { 'p(99)': 61.5 }, thresholds: { 'p(99)<50': { ok: false } } },
    unexpected_responses: { type: 'rate', values: { rate: 0.002, passes: 12, fails: 5988 }, thresholds: { 'rate<0.01': { ok: true } } },
  },
  root_group: { name: '', groups: [], checks: [{ name: 'new event accepted (200) & <ok>', passes: 5988, fails: 12 }] },
  state: { testRunDurationMs: 30_012 },
};

async function post(req: { url: string; body: string; headers: Record<string, string> }): Promise<{ status: number; text: string }> {
  const res = await fetch(req.url, { method: 'POST', body: req.body, headers: req.headers });
  return { status: res.status, text: await res.text() };
}

describe('pure modules', () => {
  it('uuidV4FromBytes gives RFC 4122 version-4 UUIDs from any 16 bytes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const id = uuid.uuidV4FromBytes(randomBytes(16));
      expect(isUuidV4(id), id).toBe(true);
      seen.add(id);
    }
    expect(seen.size).toBe(200);
    expect(uuid.uuidV4FromBytes(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(uuid.uuidV4FromBytes(new Uint8Array(16).buffer)).toBe('00000000-0000-4000-8000-000000000000');
    expect(() => uuid.uuidV4FromBytes(new Uint8Array(15))).toThrow(/16 random bytes/);
  });

  it('makeBody: valid JSON of exactly the asked size, deterministic per seed and index', () => {
    for (const size of [11, 12, 100, 300, 1024, 65_536]) {
      const body = bodies.makeBody(7, 3, size);
      expect(Buffer.byteLength(body, 'utf8')).toBe(size);
      expect(() => JSON.parse(body)).not.toThrow();
    }
    expect(bodies.makeBody(7, 3, 1024)).toBe(bodies.makeBody(7, 3, 1024));
    expect(bodies.makeBody(7, 4, 1024)).not.toBe(bodies.makeBody(7, 3, 1024));
    expect(new Set(bodies.makeBodies(1, 64, 512)).size).toBe(64);
    expect(() => bodies.makeBody(1, 0, 10)).toThrow(/at least 11/);
  });

  it('durations agree with the driver, and stages count the area under the ramp', () => {
    for (const text of ['250ms', '10s', '2m', '1h30m']) expect(duration.parseDuration(text) * 1000).toBeCloseTo(parseDurationMs(text), 9);
    // k6's -e DURATION=45 follows k6 (seconds); the harness's flags need a unit (docs/running.md).
    expect(() => parseDurationMs('45')).toThrow(/--duration 45: add a unit/);
    expect(() => duration.parseDuration('soon')).toThrow(/Not a duration/);
    const stages = duration.parseStages('30s:100,1m:500');
    expect(stages.map((s) => s.target)).toEqual([100, 500]);
    expect(duration.stagesIterations(stages, 0)).toBe(1500 + 18_000);
  });

  it('readConfig: defaults, -e overrides and refusals that name the input', () => {
    const c = config.readConfig({ RATE: '250', DURATION: '2m', BODY_BYTES: '2048' }, config.HOT_PATH_DEFAULTS);
    expect(c).toMatchObject({ rate: 250, durationSeconds: 120, bodyBytes: 2048, plannedIterations: 30_000, maxErrorRate: 0.01, summaryDir: '.' });
    expect(c.maxVUs).toBeGreaterThanOrEqual(c.preAllocatedVUs);
    expect(config.readConfig({}, config.HOT_PATH_DEFAULTS)).toMatchObject({ rate: 100, duration: '1m', bodyBytes: 1024 });
    expect(() => config.readConfig({ RATE: 'lots' }, config.HOT_PATH_DEFAULTS)).toThrow(/-e RATE=lots/);
    expect(() => config.readConfig({ MAX_ERROR_RATE: '2' }, config.HOT_PATH_DEFAULTS)).toThrow(/MAX_ERROR_RATE/);
    expect(() => config.readConfig({ DURATION: 'forever' }, config.HOT_PATH_DEFAULTS)).toThrow(/Not a duration/);
  });

  it('buildOptions: an arrival-rate scenario with thresholds on latency, unexpected answers and dropped iterations', () => {
    const c = config.readConfig({ RATE: '200', DURATION: '30s', P99_MS: '50' }, config.HOT_PATH_DEFAULTS);
    const built = options.buildOptions({ scenario: 'webhook-hmac', config: c, extraThresholds: { duplicate_409: ['rate>=0.99'] } });
    const scenario = built.options.scenarios.webhook_hmac;
    expect(scenario).toMatchObject({ executor: 'constant-arrival-rate', rate: 200, timeUnit: '1s', duration: '30s', tags: { flow: 'webhook-hmac' } });
    expect(built.options.thresholds).toEqual({
      'http_req_duration{scenario:webhook_hmac}': ['p(90)<200', 'p(99)<50'],
      unexpected_responses: ['rate<0.01'],
      dropped_iterations: ['count<=60'],
      duplicate_409: ['rate>=0.99'],
    });
    expect(built.options.discardResponseBodies).toBe(true);
    const ramp = options.buildOptions({ scenario: 'token', config: c, stages: '10s:50,20s:100', keepBodies: true });
    expect(ramp.options.scenarios.token).toMatchObject({ executor: 'ramping-arrival-rate', startRate: 0, stages: [{ duration: '10s', target: 50 }, { duration: '20s', target: 100 }] });
    expect(ramp.plannedIterations).toBe(250 + 1500);
    expect(ramp.options.discardResponseBodies).toBe(false);
    expect(options.scenarioKey('webhook-duplicates')).toBe('webhook_duplicates');
  });

  it('parseProfile resolves {"env": NAME} secrets from the environment and names a missing variable', () => {
    const text = JSON.stringify({
      version: 1,
      baseUrl: 'https://acme.example.com/',
      credentials: { primary: { clientId: 'a-b-1@acme.example.com/x', clientSecret: { env: 'K6_TEST_CLIENT_SECRET' } } },
      webhooks: { hmac: { listenerId: 'wh_1', secret: { env: 'K6_TEST_HMAC_SECRET' } } },
      tls: { insecureSkipVerify: true },
    });
    const p = profiles.parseProfile(text);
    expect(p).toMatchObject({ baseUrl: 'https://acme.example.com', webhookBaseUrl: 'https://acme.example.com', insecureSkipVerify: true, webhookBodyBytes: 65_536 });
    expect(profiles.hmacListener(p, { K6_TEST_HMAC_SECRET: 'shh' })).toEqual({ listenerId: 'wh_1', secret: 'shh' });
    expect(profiles.primaryCredential(p, { K6_TEST_CLIENT_SECRET: 'c' }).clientSecret).toBe('c');
    expect(() => profiles.hmacListener(p, {})).toThrow(/K6_TEST_HMAC_SECRET, which is not set/);
    expect(() => profiles.hmacListener(p, {}, 'hmacSecond')).toThrow(/no webhooks.hmacSecond/);
    expect(() => profiles.parseProfile('{')).toThrow(/not valid JSON/);
    expect(() => profiles.parseProfile('{"version":2}')).toThrow(/version 1/);
    expect(profiles.profilePath({ PROFILE: '/t/p.json' })).toBe('/t/p.json');
    expect(() => profiles.profilePath({})).toThrow(/Set -e PROFILE=/);
    expect(() => profiles.requireBodyWithinLimit(p.webhookBodyBytes, p)).not.toThrow();
    expect(() => profiles.requireBodyWithinLimit(p.webhookBodyBytes + 1, p)).toThrow(/over the target limit/);
  });

  it('toJUnit: one case per threshold and check, crossed ones as failures, names escaped', () => {
    const xml = junit.toJUnit(SUMMARY, 'k6 webhook-hmac');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<testsuites name="k6 webhook-hmac" tests="4" failures="2" time="30.012">');
    expect(xml).toContain('<testsuite name="thresholds" tests="3" failures="1">');
    expect(xml).toContain('classname="http_req_duration{scenario:webhook_hmac}" name="p(99)&lt;50"><failure message="http_req_duration{scenario:webhook_hmac} p(99)&lt;50 crossed (actual 61.5)"');
    expect(xml).toContain('name="new event accepted (200) &amp; &lt;ok&gt;"><failure message="12 of 6000 failed" type="check"/>');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(junit.xmlEscape(`a<b>&"'`)).toBe('a&lt;b&gt;&amp;&quot;&apos;');
  });

  it('summaryOutputs: text for stdout, the raw JSON and JUnit under SUMMARY_DIR', () => {
    const out = summary.summaryOutputs(SUMMARY, 'webhook-hmac', 'reports/');
    expect(Object.keys(out).sort()).toEqual(['reports/k6-webhook-hmac-junit.xml', 'reports/k6-webhook-hmac-summary.json', 'stdout']);
    expect(JSON.parse(out['reports/k6-webhook-hmac-summary.json'])).toEqual(SUMMARY);
    expect(out.stdout).toContain('requests      6000 (199.8/s)');
    expect(out.stdout).toContain('p99 61.50ms');
    expect(out.stdout).toContain('FAIL http_req_duration{scenario:webhook_hmac} p(99)<50');
    expect(out.stdout).toContain('1 threshold(s) crossed');
  });

  it('checkCorpus refuses an expired, too short or too small corpus and says why', () => {
    const now = 1_700_000_000;
    const corpus = { createdAt: now - 60, notAfter: now + 540, count: 1000 };
    expect(corpusLib.checkCorpus(corpus, { now, durationSeconds: 300, iterations: 1000 })).toMatchObject({ ok: true, secondsLeft: 540 });
    const expired = corpusLib.checkCorpus({ ...corpus, notAfter: now - 5 }, { now, durationSeconds: 60, iterations: 10 });
    expect(expired.ok).toBe(false);
    expect(expired.reason).toMatch(/expired .* 5 s ago/);
    const short = corpusLib.checkCorpus(corpus, { now, durationSeconds: 520, iterations: 10 });
    expect(short.reason).toMatch(/valid for 540 s more but the run needs 555 s/);
    const small = corpusLib.checkCorpus(corpus, { now, durationSeconds: 60, iterations: 6000 });
    expect(small.reason).toMatch(/holds 1000 requests but the run plans 6000.*--count 6000/);
  });
});

describe('against the reference implementation', () => {
  let sandbox: Sandbox;
  let profileText: string;
  let resolved: ResolvedProfile;

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 'k6-lib', hooks: false });
    profileText = await readFile(sandbox.profilePath, 'utf8');
    resolved = await loadProfile(sandbox.profilePath);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('HMAC requests built for k6 carry the reference signer\'s signature, get 200, and 409 when re-sent', async () => {
    const p = profiles.parseProfile(profileText);
    const listener = profiles.hmacListener(p, {});
    const eventId = uuid.uuidV4FromBytes(randomBytes(16));
    const body = bodies.makeBody(1, 0, 1024);
    const timestamp = webhook.webhookTimestamp(Date.now());
    const req = webhook.buildHmacRequest({ baseUrl: p.baseUrl, listenerId: listener.listenerId, secret: listener.secret, eventId, timestamp, body, hmac: nodeHmac });
    expect(req.url).toBe(`${sandbox.baseUrl}/api/v1/webhooks/incoming/${listener.listenerId}`);
    expect(req.headers['Webhook-Signature']).toBe(hmacSign({ secret: listener.secret, timestamp, eventId, body }));
    expect(req.headers['Webhook-Signature']).not.toMatch(/[=+/]/);
    expect((await post(req)).status).toBe(200);

    // The re-send goes through the builder the scripts use: a valid signature (not 401) on a spent ID is 409.
    const again = webhook.hmacRequestBuilder(p, listener, nodeHmac)(eventId, body, Date.now());
    expect(again.headers['Webhook-Signature']).toBe(hmacSign({ secret: listener.secret, timestamp: again.headers['Webhook-Timestamp'], eventId, body }));
    expect((await post(again)).status).toBe(409);

    // The reference does check: a signature over another body is refused.
    const forged = webhook.buildHmacRequest({ baseUrl: p.baseUrl, listenerId: listener.listenerId, secret: listener.secret, eventId: uuid.uuidV4FromBytes(randomBytes(16)), timestamp, body, hmac: nodeHmac });
    expect((await post({ ...forged, body: bodies.makeBody(1, 1, 1024) })).status).toBe(401);
  });

  it('a body of exactly the target limit is accepted (ruling 13)', async () => {
    const p = profiles.parseProfile(profileText);
    const listener = profiles.hmacListener(p, {});
    const body = bodies.makeBody(2, 0, p.webhookBodyBytes);
    const req = webhook.buildHmacRequest({
      baseUrl: p.baseUrl,
      listenerId: listener.listenerId,
      secret: listener.secret,
      eventId: uuid.uuidV4FromBytes(randomBytes(16)),
      timestamp: webhook.webhookTimestamp(Date.now()),
      body,
      hmac: nodeHmac,
    });
    expect((await post(req)).status).toBe(200);
  });

  it('the token request of load/token.js gets a token', async () => {
    const p = profiles.parseProfile(profileText);
    const credential = profiles.primaryCredential(p, {});
    const res = await post(token.buildTokenRequest({ baseUrl: p.baseUrl, ...credential }));
    expect(res.status).toBe(200);
    expect(token.isTokenResponse(res.text)).toBe(true);
    expect(token.isTokenResponse('{"access_token":"x","token_type":"Bearer","expires_in":"60"}')).toBe(false);
    const refused = await post(token.buildTokenRequest({ baseUrl: p.baseUrl, clientId: credential.clientId, clientSecret: `${credential.clientSecret}x` }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });

  it('a corpus from `load prepare` passes load/lib/corpus.js and replays with 200, then 409', async () => {
    const jwks = await startProfileJwksServers(resolved);
    try {
      for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
        const prepared = await prepareCorpus({ profile: resolved, alg, count: 3, bodyBytes: 512, seed: 'k6-lib' });
        const corpus = corpusLib.assertCorpus(JSON.parse(JSON.stringify(prepared)));
        expect(corpus.count).toBe(3);
        const verdict = corpusLib.checkCorpus(prepared, { now: Date.now() / 1000, durationSeconds: 60, iterations: 3 });
        expect(verdict.ok, verdict.reason).toBe(true);
        expect(prepared.notAfter - prepared.createdAt).toBeLessThanOrEqual(601);
        for (const entry of corpus.requests) {
          const req = webhook.buildJwtRequest({ url: corpus.url, eventId: entry.eventId, timestamp: webhook.webhookTimestamp(Date.now()), body: corpus.bodies[entry.body], jwt: entry.jwt });
          expect((await post(req)).status, alg).toBe(200);
        }
        const first = corpus.requests[0];
        const replay = webhook.buildJwtRequest({ url: corpus.url, eventId: first.eventId, timestamp: webhook.webhookTimestamp(Date.now()), body: corpus.bodies[first.body], jwt: first.jwt });
        expect((await post(replay)).status, alg).toBe(409);
      }
    } finally {
      await jwks.close();
    }
  }, 30_000);
});
