/**
 * A target that answers GET / and then hangs, drips, resets or rate-limits forever never holds the run:
 * it ends by itself (giving up after consecutive failures, or at its deadline) with exit 2, the reason on
 * stderr and all four reports written and parseable. Wall times are generous maxima, not speed tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_REPORTERS, afterRoot, hang, hostileProfile, hostileServer, readReports, runHostile, type HostileHandler, type HostileServer } from './support.js';

let dir: string;
let server: HostileServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-hostile-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function runAgainst(handler: HostileHandler, flags: string[], timeoutMs: number) {
  server = await hostileServer(handler);
  const { path, material } = await hostileProfile(dir, server.url);
  const out = join(dir, 'reports');
  const result = await runHostile(['run', '--profile', path, ...ALL_REPORTERS, '--out', out, ...flags], { env: material.env, timeoutMs });
  return { result, out };
}

/** The deadline the header printed, in ms. */
function printedDeadlineMs(stdout: string): number {
  const match = /deadline ([\d. a-z]+?) \(--max-duration\)/.exec(stdout);
  expect(match, stdout.slice(0, 2000)).not.toBeNull();
  let ms = 0;
  for (const [, amount, unit] of match![1]!.matchAll(/(\d+(?:\.\d+)?) ?(min|ms|s)/g)) ms += Number(amount) * (unit === 'min' ? 60_000 : unit === 's' ? 1000 : 1);
  expect(ms).toBeGreaterThan(0);
  return ms;
}

describe('a target that answers GET / and then hangs', () => {
  it('with default flags: ends within its printed deadline (≤ 2 min), exit 2, all four reports', async () => {
    const { result, out } = await runAgainst(afterRoot(hang), [], 180_000);
    expect(result.code, result.stderr).toBe(2);
    const deadline = printedDeadlineMs(result.stdout);
    expect(deadline).toBeLessThanOrEqual(120_000);
    // The process (startup and report writing included) ends within the deadline plus a margin.
    expect(result.wallMs).toBeLessThan(deadline + 20_000);
    expect(result.stderr).toMatch(/error\[TIMEOUT\]: gave up: 5 requests in a row timed out/);
    const reports = await readReports(out);
    expect(reports.json.verdict.status).toBe('error');
    const errored = reports.json.results.filter((r) => r.state === 'errored');
    expect(errored.length).toBeGreaterThan(150);
    expect(errored.some((r) => r.harnessError?.message.startsWith('not finished: gave up'))).toBe(true);
  }, 200_000);

  it('--max-duration stops it at the deadline when it never gives up', async () => {
    const { result, out } = await runAgainst(afterRoot(hang), ['--timeout', '20s', '--max-consecutive-failures', '0', '--max-duration', '6s'], 60_000);
    expect(result.code, result.stderr).toBe(2);
    expect(printedDeadlineMs(result.stdout)).toBe(6000);
    expect(result.stderr).toContain('error[DEADLINE]: the run reached its deadline of 6 s');
    expect(result.wallMs).toBeLessThan(30_000);
    const reports = await readReports(out);
    expect(reports.json.verdict.status).toBe('error');
    // Every group starts at once, so the checks that only read the profile's credentials (their format)
    // pass before the deadline; nothing that needs an answer from the target does.
    const passed = reports.json.results.filter((r) => r.state === 'passed');
    expect(passed.filter((r) => r.group !== 'credentials').map((r) => r.id)).toEqual([]);
    expect(reports.json.results.filter((r) => r.state === 'errored').length).toBeGreaterThan(150);
  }, 90_000);
});

describe('a target that is not there at all', () => {
  it('a closed port: exit 2 naming the URL, all four reports saying why', async () => {
    server = await hostileServer(hang);
    const url = server.url;
    await server.close();
    server = undefined;
    const { path, material } = await hostileProfile(dir, url);
    const out = join(dir, 'reports');
    const result = await runHostile(['run', '--profile', path, ...ALL_REPORTERS, '--out', out], { env: material.env, timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[TARGET_UNREACHABLE]');
    expect(result.stderr).toContain(url);
    const reports = await readReports(out);
    expect(reports.json.verdict.status).toBe('error');
    expect(reports.json.verdict.reason).toContain('does not answer');
    expect(reports.json.results.every((r) => r.state === 'errored' || r.state === 'skipped')).toBe(true);
  }, 90_000);
});

describe('other ways of not answering give up just as fast', () => {
  it('a drip (one byte every 300 ms) times out and gives up', async () => {
    const drip: HostileHandler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      const timer = setInterval(() => {
        if (res.destroyed) clearInterval(timer);
        else res.write(' ');
      }, 300);
      res.on('close', () => clearInterval(timer));
    };
    const { result, out } = await runAgainst(afterRoot(drip), ['--timeout', '1s'], 90_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[TIMEOUT]: gave up');
    expect(result.wallMs).toBeLessThan(60_000);
    await readReports(out);
  }, 120_000);

  it('a reset after GET / gives up on CONNECTION_RESET', async () => {
    const reset: HostileHandler = (req) => req.socket.destroy();
    const { result, out } = await runAgainst(afterRoot(reset), ['--timeout', '1s'], 90_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[CONNECTION_RESET]: gave up');
    expect(result.wallMs).toBeLessThan(60_000);
    await readReports(out);
  }, 120_000);
});

describe('a 429 storm', () => {
  for (const [name, retryAfter] of [
    ['Retry-After: 3600', '3600'],
    ['Retry-After: a date in 2100', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ] as const) {
    it(`${name}: ends within the deadline, exit 2, a message naming the rate limit`, async () => {
      const storm: HostileHandler = (_req, res) => {
        res.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'text/plain' }).end('slow down');
      };
      // Preflight gets a 429 too: an answer is an answer, and it is never retried.
      const { result, out } = await runAgainst(storm, [], 90_000);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/error\[RATE_LIMITED\]: gave up: 5 requests in a row were refused by the target's rate limit \(429\)/);
      expect(result.stderr).toContain('--retry-after-cap');
      expect(result.wallMs).toBeLessThan(Math.min(printedDeadlineMs(result.stdout), 60_000));
      const reports = await readReports(out);
      expect(reports.json.verdict.status).toBe('error');
    }, 120_000);
  }

  it('a Retry-After within the cap is waited for, inside the request timeout', async () => {
    let count = 0;
    // Every other request is refused once with Retry-After: 1, then answered (a 404: the checks fail).
    const flaky: HostileHandler = (_req, res) => {
      count += 1;
      if (count % 2 === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    };
    const { result } = await runAgainst(afterRoot(flaky), ['--only', 'TOK-01,TOK-02', '--timeout', '5s'], 60_000);
    // Both checks were decided (the target is not conformant), not errored on the rate limit.
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(result.stderr).not.toContain('RATE_LIMITED');
  }, 90_000);
});
