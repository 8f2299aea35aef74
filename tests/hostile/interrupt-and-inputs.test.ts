/**
 * SIGTERM and SIGINT mid-run leave the four reports, parseable, with what finished, each saying
 * interrupted with the code the process exits with (143 / 130). `load` interrupted (while sending or while
 * priming) exits 130 / 143, never 0, and writes a report that says so, without target errors the harness
 * caused. Bad profiles (a FIFO, /dev/zero, 50 MB, a directory) and numeric flags out of their real range
 * are a clear exit 2 at once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { ALL_REPORTERS, hang, hostileProfile, hostileServer, readReports, runHostile } from './support.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-hostile-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a signal mid-run', () => {
  for (const [name, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${name} after the first group finished: exit ${code}, four parseable reports with what finished`, async () => {
      const out = join(dir, 'reports');
      // The embedded reference: a real run, interrupted once a group line shows progress.
      const result = await runHostile(['run', ...ALL_REPORTERS, '--out', out, '--seed', 'interrupt'], {
        timeoutMs: 90_000,
        signal: { name, when: (stdout) => /\.\.\. \d+ passed/.test(stdout) },
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(code);
      expect(result.stderr).toContain(`${name}: stopping the run and writing the reports`);
      const reports = await readReports(out);
      expect(reports.json.verdict).toMatchObject({ status: 'interrupted', exitCode: code, code: 'INTERRUPTED' });
      expect(reports.json.verdict.reason).toContain(`interrupted by ${name}`);
      // Every report says interrupted with the real exit code, none "error (exit 2)".
      expect(result.stdout).toContain(`verdict: interrupted (exit ${code})`);
      expect(reports.markdown).toContain(`access-conformance: interrupted (exit ${code})`);
      expect(reports.html).toContain(`interrupted (exit ${code})`);
      expect(reports.junit).toContain('<property name="verdict" value="interrupted"/>');
      expect(reports.junit).toContain(`<property name="exit-code" value="${code}"/>`);
      for (const text of [result.stdout, ...reports.texts]) expect(text).not.toMatch(/error \(exit 2\)|"exitCode": 2\b/);
      const states = reports.json.results.map((r) => r.state);
      // One result per requirement, or one per called operation for a per-operation one (OPS-*).
      expect(new Set(reports.json.results.map((r) => r.id)).size).toBe(allRequirements().length);
      expect(states).toContain('passed');
      const unfinished = reports.json.results.filter((r) => r.state === 'errored');
      expect(unfinished.length).toBeGreaterThan(0);
      for (const r of unfinished) expect(r.harnessError?.code).toBe('INTERRUPTED');
      expect(reports.junit).toContain('<error');
    }, 120_000);
  }
});

interface LoadReportJson {
  exitCode: number;
  interrupted: boolean;
  interruption?: { signal?: string; phase: string; exitCode: number };
  counts: { sent: number; planned: number; cancelled: number; transportFailures: number; failures: Record<string, number>; statuses: Record<string, number> };
}

async function loadReport(out: string, scenario: string): Promise<LoadReportJson> {
  return JSON.parse(await readFile(join(out, `load-${scenario}.json`), 'utf8')) as LoadReportJson;
}

describe('load interrupted', () => {
  for (const [name, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${name} while sending to the embedded reference: exit ${code}, a report that says so, no target errors the harness caused`, async () => {
      const out = join(dir, 'load');
      const result = await runHostile(['load', '--rate', '200', '--duration', '60s', '--out', out, '--seed', 'interrupt'], {
        timeoutMs: 60_000,
        // Two progress lines: the run is under way, with requests in flight.
        signal: { name, when: (_stdout, stderr) => (stderr.match(/\/s \(asked/g) ?? []).length >= 2 },
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(code);
      expect(result.stdout).toContain(`INTERRUPTED: interrupted by ${name} while sending`);
      const report = await loadReport(out, 'webhook-hmac');
      expect(report.exitCode).toBe(code);
      expect(report.interruption).toEqual({ signal: name, phase: 'sending', exitCode: code });
      expect(report.counts.sent).toBeGreaterThan(0);
      expect(report.counts.sent).toBeLessThan(report.counts.planned);
      // In-flight requests finished or were counted as cancelled by the harness: the embedded target was
      // stopped after them, so no reset or refusal lands on it.
      expect(report.counts.failures).toEqual({});
      expect(report.counts.transportFailures).toBe(0);
      expect(Object.keys(report.counts.statuses)).toEqual(['200']);
      expect(existsSync(join(out, 'load-webhook-hmac.html'))).toBe(true);
    }, 90_000);
  }

  it('SIGTERM while priming (the first token never comes): exit 143 and a report "nothing measured"', async () => {
    const server = await hostileServer(hang);
    try {
      const { path, material } = await hostileProfile(dir, server.url);
      const out = join(dir, 'load-priming');
      const started = Date.now();
      const result = await runHostile(['load', '--profile', path, '--scenario', 'pages', '--rate', '10', '--duration', '10s', '--timeout', '30s', '--out', out], {
        timeoutMs: 60_000,
        env: material.env,
        // The token request hangs: the run is still priming after a second and a half.
        signal: { name: 'SIGTERM', when: () => Date.now() - started > 1500 && server.requests.length > 0 },
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(143);
      expect(result.stdout).toContain('interrupted by SIGTERM while priming');
      expect(result.stdout).toContain('nothing measured');
      const report = await loadReport(out, 'pages');
      expect(report.exitCode).toBe(143);
      expect(report.interruption).toEqual({ signal: 'SIGTERM', phase: 'set-up', step: 'keys', exitCode: 143 });
      expect(report.counts.sent).toBe(0);
      expect(result.wallMs).toBeLessThan(20_000);
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe('bad profiles: a clear exit 2 at once', () => {
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['a FIFO', async () => {
      const path = join(dir, 'fifo.json');
      execFileSync('mkfifo', [path]);
      return path;
    }, /FIFO \(named pipe\), not a regular file/],
    ['/dev/zero', async () => '/dev/zero', /a device, not a regular file/],
    ['a 50 MB file', async () => {
      const path = join(dir, 'big.json');
      await writeFile(path, '{');
      await truncate(path, 50 * 1024 * 1024);
      return path;
    }, /it is 50 MB, more than the 4 MB a profile file may have/],
    ['a directory', async () => dir, /EISDIR/],
  ];
  for (const [name, make, message] of cases) {
    it(name, async () => {
      const path = await make();
      const result = await runHostile(['run', '--profile', path], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('error[PROFILE_UNREADABLE]');
      expect(result.stderr).toMatch(message);
      expect(result.wallMs).toBeLessThan(20_000);
    }, 40_000);
  }
});

describe('numeric flags within their real range', () => {
  const cases: Array<[string[], RegExp]> = [
    // Past 2^31-1 ms a Node timer fires after 1 ms: refused, not silently turned into a 1 ms timeout.
    [['--timeout', '3000000000ms'], /--timeout must be at most/],
    [['--timeout', '0'], /--timeout must be more than zero/],
    [['--timeout', '10 parsecs'], /--timeout must be a duration/],
    // A bare number once meant ms to run and s to load: refused in every command, with the fix.
    [['--timeout', '30'], /--timeout 30: add a unit, e\.g\. 30s or 30ms/],
    [['--max-duration', '120000'], /--max-duration 120000: add a unit/],
    [['--strict=maybe'], /--strict takes true\/false, 1\/0, yes\/no or on\/off; got "maybe"/],
    [['--max-duration', '0'], /--max-duration must be more than zero/],
    [['--max-duration', '100d'], /--max-duration must be a duration/],
    [['--retry-after-cap', '2h'], /--retry-after-cap must be at most 1 h|--retry-after-cap must be at most/],
    [['--max-consecutive-failures', '-1'], /--max-consecutive-failures must be a whole number/],
    [['--concurrency', '100000'], /--concurrency must be a whole number from 1 to 1024/],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), async () => {
      const result = await runHostile(['run', ...args], { timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('error[USAGE]');
      expect(result.stderr).toMatch(message);
    }, 40_000);
  }
});
