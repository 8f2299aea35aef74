/**
 * `access-conformance load` as users run it (the built CLI in a child process): exit 1 when a threshold is
 * crossed, 2 for a usage error, Ctrl-C (SIGINT) still writes the partial report, and `load prepare` writes
 * a corpus and states its validity window.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { cli, fixtureTarget } from './support/load-cli.js';

const target = fixtureTarget('ac-load-cli-');

describe('load (CLI)', () => {
  it('exits 0 when thresholds hold and 1 when one is crossed, printing the figures', async () => {
    const out = join(target.work, 'thresholds');
    const held = await cli(['load', '--profile', target.profilePath, '--rate', '100', '--duration', '1s', '--out', out, '--threshold', 'errors<1%', '--threshold', 'p99<10s']);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).toMatch(/latency\s+p50 .* p90 .* p99 .* p99\.9 .* max /);
    expect(held.stdout).toContain('threshold  ok   errors<1%');
    const crossed = await cli(['load', '--profile', target.profilePath, '--rate', '100', '--duration', '1s', '--out', out, '--threshold', 'p50<1us', '--quiet']);
    expect(crossed.code, crossed.stderr).toBe(1);
    expect(crossed.stdout).toContain('threshold  FAIL p50<1us');
    expect(crossed.stderr).toBe('');
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as { passed: boolean; counts: { sent: number } };
    expect(report.passed).toBe(false);
    expect(report.counts.sent).toBe(100);
  }, 30_000);

  it('exits 2 for usage errors: no rate, a bad threshold, flags of the other action', async () => {
    const noRate = await cli(['load', '--profile', target.profilePath, '--duration', '2s']);
    expect(noRate.code).toBe(2);
    expect(noRate.stderr).toContain('error[LOAD_CONFIG] at --rate');
    const badThreshold = await cli(['load', '--profile', target.profilePath, '--rate', '5', '--duration', '1s', '--threshold', 'p99<fast']);
    expect(badThreshold.code).toBe(2);
    expect(badThreshold.stderr).toContain('at --threshold');
    const wrongAction = await cli(['load', '--rate', '5', '--duration', '1s', '--count', '10']);
    expect(wrongAction.code).toBe(2);
    expect(wrongAction.stderr).toContain('--count belongs to `load prepare`');
  }, 30_000);

  it('Ctrl-C (SIGINT) stops sending, writes the partial report that says interrupted, and exits 130 (never 0)', async () => {
    const out = join(target.work, 'interrupted');
    let sent = false;
    const result = await cli(['load', '--profile', target.profilePath, '--rate', '50', '--duration', '60s', '--out', out], (stderr, kill) => {
      // Interrupt once the run is visibly under way (two progress lines).
      if (!sent && (stderr.match(/\/s \(asked/g) ?? []).length >= 2) {
        sent = true;
        kill('SIGINT');
      }
    });
    expect(sent).toBe(true);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain('SIGINT: stopping the load run and writing the reports');
    expect(result.stdout).toContain('INTERRUPTED: interrupted by SIGINT while sending: partial results');
    expect(result.stdout).toContain('(exit 130)');
    const report = JSON.parse(await readFile(join(out, 'load-webhook-hmac.json'), 'utf8')) as {
      interrupted: boolean;
      interruption: { signal: string; phase: string; exitCode: number };
      exitCode: number;
      stopReason: string;
      counts: { sent: number; planned: number };
    };
    expect(report.interrupted).toBe(true);
    expect(report.interruption).toEqual({ signal: 'SIGINT', phase: 'sending', exitCode: 130 });
    expect(report.exitCode).toBe(130);
    expect(report.stopReason).toBe('interrupted');
    expect(report.counts.sent).toBeGreaterThanOrEqual(50);
    expect(report.counts.sent).toBeLessThan(report.counts.planned);
    expect(existsSync(join(out, 'load-webhook-hmac.html'))).toBe(true);
  }, 30_000);
});

describe('load prepare (CLI)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 'load-cli-prepare', hooks: false });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('writes a corpus, prints its validity window, and the driver replays it with 200s', async () => {
    const corpus = join(target.work, 'corpus.json');
    const prepared = await cli(['load', 'prepare', '--profile', sandbox.profilePath, '--scenario', 'webhook-jwt', '--alg', 'EdDSA', '--count', '60', '--out', corpus, '--exp-in', '5m', '--quiet']);
    expect(prepared.code, prepared.stderr).toBe(0);
    expect(prepared.stdout).toMatch(/60 EdDSA webhook requests for http:\/\/127\.0\.0\.1:\d+\/api\/v1\/webhooks\/incoming\//);
    expect(prepared.stdout).toMatch(/validity: signed \S+Z, valid until \S+Z \((29\d|300) s left\)/);
    expect(prepared.stdout).toContain('k6 run -e CORPUS=');
    const replay = await cli(['load', '--profile', sandbox.profilePath, '--scenario', 'webhook-jwt', '--corpus', corpus, '--rate', '40', '--duration', '1s', '--out', join(target.work, 'replay'), '--quiet']);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('answers    200: 40 (expected 200)');
    // Too short for a 2-second run at 40/s: refused before sending, with the reason.
    const tooSmall = await cli(['load', '--profile', sandbox.profilePath, '--scenario', 'webhook-jwt', '--corpus', corpus, '--rate', '40', '--duration', '2s', '--out', join(target.work, 'replay')]);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toContain('error[CORPUS_INVALID] at --corpus: the corpus holds 60 requests but the run plans 80');
  }, 45_000);

  it('refuses without a profile, or for another scenario', async () => {
    const noProfile = await cli(['load', 'prepare', '--scenario', 'webhook-jwt', '--count', '5', '--out', join(target.work, 'x.json')]);
    expect(noProfile.code).toBe(2);
    expect(noProfile.stderr).toContain('needs --profile');
    const other = await cli(['load', 'prepare', '--scenario', 'webhook-hmac', '--count', '5', '--out', join(target.work, 'x.json')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('webhook-jwt corpora only');
  }, 30_000);
});
