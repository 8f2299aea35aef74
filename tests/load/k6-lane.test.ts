/**
 * The k6 lane: the scripts in load/ under a real k6 against `serve --hooks` (the user's own k6: K6_BIN, else
 * PATH; none, and the lane skips saying so). Each run is asserted on what the
 * script itself reports (exit code, checks, thresholds, summary JSON, JUnit file) and on what `serve` saw
 * through the runs hook: one automation run per accepted event, none for a duplicate. webhook-jwt.js runs
 * in k6-segments.test.ts. Bounded: at most 50 arrivals a second for 5 s per run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../cli/support.js';
import { fixtureProfile } from './support/fixtures.js';
import { runK6, type K6 } from './support/k6-bin.js';
import { startLane, startSleepyTarget, type Lane } from './support/k6-lane.js';
import { checksOf, count, newRuns, passesOf, readJunit, readSummary, repeated, runsOf, thresholdsOf, type K6Summary } from './support/k6-results.js';
import { describeWith } from '../support/capabilities.js';

const lane: Lane = await startLane('k6-lane');
const k6 = lane.found.k6 as K6;
afterAll(() => lane.close());

/** Runs a script against the sandbox and returns its summary, with the runs the listener gained. */
async function run(script: string, scenario: string, inputs: Record<string, string | number>, listener = 'hmac') {
  const before = await runsOf(lane.profilePath, listener);
  const dir = lane.runDir(`${scenario}-${Date.now()}`);
  const result = await runK6(k6, script, { PROFILE: lane.profilePath, SUMMARY_DIR: dir, ...inputs }, { home: dir });
  const after = await runsOf(lane.profilePath, listener);
  return { result, dir, summary: readSummary(dir, scenario), junit: readJunit(dir, scenario), added: newRuns(before, after), after };
}

/** What every healthy run must show: exit 0, every check and threshold held, JUnit agreeing. */
function expectHealthy(out: Awaited<ReturnType<typeof run>>): void {
  const explain = `${out.result.stdout}\n${out.result.stderr.slice(-3000)}`;
  expect(out.result.code, explain).toBe(0);
  expect(checksOf(out.summary).filter((c) => c.fails > 0), explain).toEqual([]);
  expect(thresholdsOf(out.summary).filter((t) => !t.ok), explain).toEqual([]);
  expect(out.junit.failures).toBe(0);
  expect(out.junit.tests).toBe(thresholdsOf(out.summary).length + checksOf(out.summary).length);
  expect(out.result.stdout).toContain('all thresholds held');
  // Each accepted event ran the automation exactly once, across everything this lane sent.
  expect(repeated(out.after)).toEqual([]);
}

/** Planned iterations as k6 counts them: started + dropped; the tick at DURATION itself may or may not fire. */
function expectPlanned(summary: K6Summary, planned: number): void {
  expect(summary.accessConformance.plannedIterations).toBe(planned);
  const scheduled = count(summary, 'iterations') + count(summary, 'dropped_iterations');
  expect(scheduled).toBeGreaterThanOrEqual(planned);
  expect(scheduled).toBeLessThanOrEqual(planned + 1);
}

describeWith('k6', lane.found.k6 !== undefined, lane.found.skip ?? 'no k6', `k6 lane: the scripts under ${lane.found.k6?.version ?? 'no k6'}`, () => {
  beforeAll(() => expect(lane.found.k6?.version).toMatch(/^k6 v\d+\.\d+\.\d+/));

  it('webhook-hmac.js: every new event accepted once; thresholds, summary JSON and JUnit agree', async () => {
    const out = await run('webhook-hmac.js', 'webhook-hmac', { RATE: 20, DURATION: '5s' });
    expectHealthy(out);
    expectPlanned(out.summary, 100);
    const accepted = passesOf(out.summary, 'new event accepted (200)');
    expect(accepted).toBe(count(out.summary, 'http_reqs'));
    expect(out.added).toHaveLength(accepted);
    expect(out.summary.accessConformance).toMatchObject({ segment: null, runningSegment: null, droppedBudget: 5 });
    expect(out.summary.metrics.dropped_iterations?.thresholds).toEqual({ 'count<=5': { ok: true } });
  }, 120_000);

  it('webhook-duplicates.js: only the primed pool runs; every re-send is refused 409', async () => {
    const out = await run('webhook-duplicates.js', 'webhook-duplicates', { RATE: 20, DURATION: '5s', DUP_POOL: 10, LISTENER: 'hmacSecond' }, 'hmacSecond');
    expectHealthy(out);
    expectPlanned(out.summary, 100);
    // setup() primes 10 events (200 each); the scenario's requests are all duplicates.
    expect(out.added).toHaveLength(10);
    expect(passesOf(out.summary, 'duplicate refused (409)')).toBe(count(out.summary, 'iterations'));
    expect(count(out.summary, 'http_reqs')).toBe(count(out.summary, 'iterations') + 10);
  }, 120_000);

  it('soak.js: new events run once, re-sent ones get 409 and do not run again', async () => {
    const out = await run('soak.js', 'soak', { RATE: 20, DURATION: '5s', DUP_EVERY: 5, LISTENER: 'hmacSecond' }, 'hmacSecond');
    expectHealthy(out);
    expectPlanned(out.summary, 100);
    const accepted = passesOf(out.summary, 'new event accepted (200)');
    const refused = passesOf(out.summary, 'duplicate refused (409)');
    expect(refused).toBeGreaterThan(0);
    expect(accepted + refused).toBe(count(out.summary, 'http_reqs'));
    expect(out.added).toHaveLength(accepted);
  }, 120_000);

  it('token.js: a token for every request; the automation does not run', async () => {
    const out = await run('token.js', 'token', { RATE: 10, DURATION: '3s' });
    expectHealthy(out);
    expectPlanned(out.summary, 30);
    expect(passesOf(out.summary, 'token issued (200, Bearer, expires_in)')).toBe(count(out.summary, 'http_reqs'));
    expect(out.added).toEqual([]);
  }, 120_000);

  it('a target that sleeps 500 ms per request fails the latency threshold at RATE=20 (exit 99), with every check passing', async () => {
    const slow = await startSleepyTarget(500);
    try {
      const profilePath = join(lane.dir, 'slow.target.json');
      writeFileSync(profilePath, JSON.stringify(fixtureProfile(slow.baseUrl)), { mode: 0o600 });
      const dir = lane.runDir('slow');
      const result = await runK6(k6, 'webhook-hmac.js', { PROFILE: profilePath, SUMMARY_DIR: dir, RATE: 20, DURATION: '5s' }, { home: dir });
      expect(result.code, result.stdout + result.stderr.slice(-2000)).toBe(99);
      const summary = readSummary(dir, 'webhook-hmac');
      const crossed = thresholdsOf(summary).filter((t) => !t.ok);
      expect(crossed).toContainEqual({ metric: 'http_req_duration{scenario:webhook_hmac}', expression: 'p(90)<200', ok: false });
      // Slowness, not errors and not the load generator: every answer was the expected 200, and the VUs
      // pre-allocated for rate × (latency + headroom) kept every iteration on schedule.
      expect(checksOf(summary).filter((c) => c.fails > 0)).toEqual([]);
      expect(crossed.map((t) => t.metric)).not.toContain('unexpected_responses');
      expect(summary.metrics.http_req_duration?.values.med).toBeGreaterThanOrEqual(500);
      expect(readJunit(dir, 'webhook-hmac').failures).toBe(crossed.length);
      expect(result.stdout).toMatch(/threshold\(s\) crossed/);
      expect(slow.received()).toBe(count(summary, 'http_reqs'));
    } finally {
      await slow.close();
    }
  }, 120_000);

  it('the built-in driver and k6, same scenario and rate: the same answers, and serve ran each accepted event once', async () => {
    const rate = 50;
    const viaK6 = await run('webhook-hmac.js', 'webhook-hmac', { RATE: rate, DURATION: '5s' });
    expectHealthy(viaK6);
    const before = await runsOf(lane.profilePath, 'hmac');
    const out = lane.runDir('driver');
    const driver = await runCli(['load', '--profile', lane.profilePath, '--rate', String(rate), '--duration', '5s', '--quiet', '--out', out], { timeoutMs: 60_000 });
    expect(driver.code, driver.stdout + driver.stderr).toBe(0);
    const after = await runsOf(lane.profilePath, 'hmac');
    const report = JSON.parse(readFileSync(join(out, 'load-webhook-hmac.json'), 'utf8')) as {
      counts: { completed: number; errors: number; statuses: Record<string, number> };
      rates: { achievedPerSecond: number };
      latencyMs: { p50: number; p99: number };
    };
    const added = newRuns(before, after);
    expect(report.counts.errors).toBe(0);
    expect(added).toHaveLength(report.counts.statuses['200'] ?? 0);
    expect(repeated(after)).toEqual([]);
    const k6Accepted = passesOf(viaK6.summary, 'new event accepted (200)');
    expect(viaK6.added).toHaveLength(k6Accepted);
    const d = viaK6.summary.metrics.http_req_duration?.values ?? {};
    const rows = [
      ['tool', 'achieved /s', 'errors', 'p50 ms', 'p99 ms', 'latency from', '200s', 'runs hook'],
      ['load', report.rates.achievedPerSecond.toFixed(1), String(report.counts.errors), report.latencyMs.p50.toFixed(2), report.latencyMs.p99.toFixed(2), 'intended send', String(report.counts.statuses['200'] ?? 0), String(added.length)],
      [k6.version, (viaK6.summary.metrics.http_reqs?.values.rate ?? 0).toFixed(1), String(count(viaK6.summary, 'http_reqs') - k6Accepted), (d.med ?? 0).toFixed(2), (d['p(99)'] ?? 0).toFixed(2), 'actual send', String(k6Accepted), String(viaK6.added.length)],
    ];
    process.stdout.write(`\nwebhook-hmac at ${rate}/s for 5 s against serve:\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
    for (const tool of [report.rates.achievedPerSecond, viaK6.summary.metrics.http_reqs?.values.rate ?? 0]) expect(Math.abs(tool - rate)).toBeLessThan(rate * 0.2);
  }, 300_000);
});
