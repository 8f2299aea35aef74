/**
 * SIGTERM and SIGINT mid-run leave the four reports, parseable, with what finished; the process exits
 * 143 / 130. Bad profiles (a FIFO, /dev/zero, 50 MB, a directory) and numeric flags out of their real range
 * are a clear exit 2 at once.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allRequirements } from '../../src/requirements.js';
import { ALL_REPORTERS, readReports, runHostile } from './support.js';

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
      expect(reports.json.verdict.status).toBe('error');
      expect(reports.json.verdict.reason).toContain(`interrupted by ${name}`);
      const states = reports.json.results.map((r) => r.state);
      expect(states.length).toBe(allRequirements().length);
      expect(states).toContain('passed');
      const unfinished = reports.json.results.filter((r) => r.state === 'errored');
      expect(unfinished.length).toBeGreaterThan(0);
      for (const r of unfinished) expect(r.harnessError?.code).toBe('INTERRUPTED');
      expect(reports.junit).toContain('<error');
    }, 120_000);
  }
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
    [['--timeout', '3000000000'], /--timeout must be at most/],
    [['--timeout', '0'], /--timeout must be more than zero/],
    [['--timeout', '10 parsecs'], /--timeout must be a duration/],
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
