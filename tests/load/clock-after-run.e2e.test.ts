/**
 * Issue 31: a conformance run that moves the target's clock (test-hooks.md: `POST /clock` is for good) says
 * so, with the amount, and must not leave `load` refused. Against one `serve --hooks`: `run --only AUTH-07` (a check that advances the
 * clock past a token's lifetime); the target's clock is then more than 50 minutes ahead of local time (the
 * control: a timestamp in local time is now outside the ±300 s window); then short, bounded `load` runs of
 * the scenarios that sign (HMAC timestamps, webhook JWTs, client assertions) get no error at all.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { listenerPath } from '../../src/client/index.js';
import { hmacSigner } from '../../src/load/hmac-signer.js';
import { loadProfile } from '../../src/profile/index.js';
import { runCli, startServe, type StartedProcess } from '../cli/support.js';

interface LoadReport {
  counts: { completed: number; errors: number };
  details: Record<string, string | number>;
  errorSamples: unknown[];
}

const dir = await mkdtemp(join(tmpdir(), 'ac-clock-'));
const profile = join(dir, 'target.json');
let serve: StartedProcess;

beforeAll(async () => {
  serve = await startServe(['--hooks', '--profile-out', profile], profile);
}, 90_000);
afterAll(async () => {
  await serve?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function targetNow(): Promise<number> {
  const hooks = (JSON.parse(await readFile(profile, 'utf8')) as { hooks: { baseUrl: string; token: string } }).hooks;
  const response = await fetch(`${hooks.baseUrl}/clock`, { headers: { authorization: `Bearer ${hooks.token}` }, signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { now: number }).now;
}

describe('load after a run that moved the target clock', () => {
  it('a run that moves no clock says nothing about it', async () => {
    const run = await runCli(['run', '--profile', profile, '--only', 'AUTH-08', '--reporter', 'json', '--out', join(dir, 'still')], { timeoutMs: 180_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'still', 'report.json'), 'utf8')) as { clockMoved?: unknown };
    expect(report.clockMoved).toBeUndefined();
    expect(run.stdout).not.toContain('target clock:');
  }, 200_000);

  it('the run moves the clock forward, and its console and JSON report say by how much', async () => {
    const run = await runCli(['run', '--profile', profile, '--only', 'AUTH-07', '--reporter', 'json', '--out', join(dir, 'run')], { timeoutMs: 180_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const ahead = (await targetNow()) - Date.now() / 1000;
    // AUTH-07 waits out a token's lifetime (an hour on serve) on the target's clock.
    expect(ahead).toBeGreaterThan(3000);
    const report = JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')) as { clockMoved?: { seconds?: number; note: string } };
    // Measured by the run between its preflight and its end: the same hour, to within the reads' noise.
    expect(Math.abs((report.clockMoved?.seconds ?? 0) - ahead)).toBeLessThan(5);
    expect(report.clockMoved?.note).toMatch(/^this run moved the target's clock forward by \d+ s; the test-hook contract has no way back/);
    expect(run.stdout).toContain(`target clock: this run moved the target's clock forward by ${report.clockMoved?.seconds} s`);
    // The control: a webhook signed with local time is now refused (what `load` got before it read the clock).
    const resolved = await loadProfile(profile);
    const hmac = resolved.webhooks.hmac!;
    const body = Buffer.from('{"event":"clock-control"}');
    const eventId = randomUUID();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const refused = await fetch(`${resolved.baseUrl}${listenerPath(hmac.listenerId)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-timestamp': timestamp,
        'webhook-event-id': eventId,
        'webhook-signature': hmacSigner(hmac.secret)(timestamp, eventId, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    expect(refused.status).toBe(400);
  }, 200_000);

  for (const [scenario, extra] of [
    ['webhook-hmac', []],
    ['webhook-jwt', []],
    ['token', ['--token-method', 'assertion']],
  ] as const) {
    it(`${scenario} signs with the target's time: no error`, async () => {
      const out = join(dir, scenario);
      const load = await runCli(['load', '--profile', profile, '--scenario', scenario, ...extra, '--rate', '20', '--duration', '2s', '--out', out], {
        timeoutMs: 60_000,
      });
      expect(load.code, load.stdout + load.stderr).toBe(0);
      const report = JSON.parse(await readFile(join(out, `load-${scenario}.json`), 'utf8')) as LoadReport;
      expect(report.counts.completed).toBeGreaterThanOrEqual(30);
      expect(report.counts.errors, JSON.stringify(report.errorSamples)).toBe(0);
      expect(String(report.details.targetClock)).toMatch(/^\+\d{4,}\.\d s \(clock hook\)$/);
      expect(load.stdout).toMatch(/clock {6}the target's time is local time \+\d+\.\d s/);
    }, 70_000);
  }
});
