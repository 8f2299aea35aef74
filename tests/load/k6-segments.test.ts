/**
 * Execution segments under a real k6: load/webhook-jwt.js replays a Node-signed corpus, picking entries by
 * `exec.scenario.iterationInTest`, which k6 keeps unique across instances. One whole run on one corpus,
 * then two k6 processes at once with complementary segments (0:1/2 and 1/2:1) on another corpus of the same
 * size and the same target. Asserted: the halves' planned iterations add up to the whole run's, every
 * request of both got 200 (no 409) and the runs hook shows one run per request with no event ID twice (a
 * second send of an ID cannot get 200), and each instance's dropped-iteration budget is its own share.
 * Bounded: 40 arrivals a second for 5 s, about 600 requests in all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, runCli } from '../cli/support.js';
import { runK6, type K6 } from './support/k6-bin.js';
import { startLane, type Lane } from './support/k6-lane.js';
import { checksOf, count, newRuns, passesOf, readJunit, readSummary, repeated, runsOf, thresholdsOf, type K6Summary } from './support/k6-results.js';
import { describeWith } from '../support/capabilities.js';

const RATE = 40;
const DURATION = '5s';
const PLANNED = 200;
/** 10 % so that the share, not the floor of 5, sets the budgets: 20 for the whole run, 10 per half. */
const MAX_DROPPED_RATIO = 0.1;
/** k6 may start one iteration more per instance, at the very end; each needs an unused entry. */
const CORPUS_COUNT = PLANNED + 4;
const SEQUENCE = '0,1/2,1';

const lane: Lane = await startLane('k6-segments');
const k6 = lane.found.k6 as K6;
let jwks: ChildProcess | undefined;

/** `load prepare`: a corpus of JWT webhooks for the sandbox's JWT listener. */
async function prepare(name: string): Promise<{ path: string; ids: Set<string> }> {
  const path = join(lane.dir, `${name}.corpus.json`);
  const out = await runCli(['load', 'prepare', '--profile', lane.profilePath, '--scenario', 'webhook-jwt', '--alg', 'EdDSA', '--count', String(CORPUS_COUNT), '--out', path], { timeoutMs: 60_000 });
  expect(out.code, out.stdout + out.stderr).toBe(0);
  const corpus = JSON.parse(readFileSync(path, 'utf8')) as { requests: Array<{ eventId: string }> };
  return { path, ids: new Set(corpus.requests.map((r) => r.eventId)) };
}

/** The sandbox's JWT listener fetches its JWKS from a server the harness runs: `load prepare --serve-jwks`. */
async function serveJwks(): Promise<ChildProcess> {
  const path = join(lane.dir, 'jwks.corpus.json');
  const child = spawn(process.execPath, [BIN, 'load', 'prepare', '--profile', lane.profilePath, '--scenario', 'webhook-jwt', '--count', '1', '--out', path, '--serve-jwks'], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const deadline = Date.now() + 60_000;
  while (!/serving the JWKS/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`load prepare --serve-jwks did not serve: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

async function stopJwks(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

afterAll(async () => {
  await stopJwks(jwks);
  await lane.close();
});

async function replay(corpus: string, name: string, inputs: Record<string, string> = {}, args: string[] = []) {
  const dir = lane.runDir(name);
  const result = await runK6(k6, 'webhook-jwt.js', { CORPUS: corpus, RATE, DURATION, MAX_DROPPED_RATIO, SUMMARY_DIR: dir, ...inputs }, { home: dir, args });
  expect(result.code, `${name}: ${result.stdout}\n${result.stderr.slice(-3000)}`).toBe(0);
  const summary = readSummary(dir, 'webhook-jwt');
  expect(checksOf(summary).filter((c) => c.fails > 0)).toEqual([]);
  expect(thresholdsOf(summary).filter((t) => !t.ok)).toEqual([]);
  expect(readJunit(dir, 'webhook-jwt').failures).toBe(0);
  return summary;
}

const accepted = (summary: K6Summary): number => passesOf(summary, 'signed event accepted (200)');
const scheduled = (summary: K6Summary): number => count(summary, 'iterations') + count(summary, 'dropped_iterations');

describeWith('k6', lane.found.k6 !== undefined, lane.found.skip ?? 'no k6', `k6 execution segments under ${lane.found.k6?.version ?? 'no k6'}`, () => {
  beforeAll(async () => {
    jwks = await serveJwks();
  }, 90_000);

  it('two halves at once split the whole run: planned iterations add up, no event ID twice, no 409, budgets scaled per instance', async () => {
    const [whole, halves] = [await prepare('whole'), await prepare('halves')];

    const before = await runsOf(lane.profilePath, 'jwt');
    const single = await replay(whole.path, 'whole');
    const afterSingle = await runsOf(lane.profilePath, 'jwt');
    expect(single.accessConformance).toMatchObject({ plannedIterations: PLANNED, instanceIterations: PLANNED, droppedBudget: 20, segment: null, runningSegment: null });
    expect(single.metrics.dropped_iterations?.thresholds).toEqual({ 'count<=20': { ok: true } });
    const singleRuns = newRuns(before, afterSingle);
    expect(singleRuns).toHaveLength(accepted(single));
    expect(accepted(single)).toBe(count(single, 'http_reqs'));
    expect(singleRuns.every((id) => whole.ids.has(id))).toBe(true);

    const [first, second] = await Promise.all(
      ['0:1/2', '1/2:1'].map((segment, i) => replay(halves.path, `half-${i}`, { EXECUTION_SEGMENT: segment, EXECUTION_SEGMENT_SEQUENCE: SEQUENCE })),
    );
    const afterHalves = await runsOf(lane.profilePath, 'jwt');
    for (const [half, segment] of [[first, '0:1/2'], [second, '1/2:1']] as const) {
      // Each instance planned, and is held to, its own share: half the iterations, half the drop budget.
      expect(half!.accessConformance).toMatchObject({ plannedIterations: PLANNED, instanceIterations: PLANNED / 2, droppedBudget: 10, segment, runningSegment: segment });
      expect(half!.accessConformance.warning).toBeUndefined();
      expect(half!.metrics.dropped_iterations?.thresholds).toEqual({ 'count<=10': { ok: true } });
      expect(scheduled(half!)).toBeGreaterThanOrEqual(PLANNED / 2);
      expect(scheduled(half!)).toBeLessThanOrEqual(PLANNED / 2 + 1);
      expect(accepted(half!)).toBe(count(half!, 'http_reqs'));
    }
    expect(first!.accessConformance.instanceIterations + second!.accessConformance.instanceIterations).toBe(single.accessConformance.plannedIterations);
    expect(Math.abs(scheduled(first!) + scheduled(second!) - scheduled(single))).toBeLessThanOrEqual(2);

    // Every request of both halves got 200 and ran the automation once, each with its own event ID.
    const halvesRuns = newRuns(afterSingle, afterHalves);
    expect(halvesRuns).toHaveLength(accepted(first!) + accepted(second!));
    expect(repeated(afterHalves)).toEqual([]);
    expect(halvesRuns.every((id) => halves.ids.has(id))).toBe(true);
  }, 300_000);

  it('a segment given as --execution-segment (which the script cannot see at init) is named in a warning', async () => {
    const corpus = await prepare('flag');
    const summary = await replay(corpus.path, 'flag', {}, ['--execution-segment', '0:1/2', '--execution-segment-sequence', SEQUENCE]);
    expect(summary.accessConformance).toMatchObject({ segment: null, runningSegment: '0:1/2', droppedBudget: 20 });
    expect(summary.accessConformance.warning).toMatch(/-e EXECUTION_SEGMENT/);
  }, 120_000);
});
