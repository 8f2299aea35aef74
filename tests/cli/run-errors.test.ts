/**
 * `run` exits 2 with a clear message, before checking anything, when the setup is wrong: a profile that
 * does not exist, is not JSON, breaks the schema or names an unset variable; a target that does not answer
 * (a closed port, or one that accepts connections and stays silent); a selection that checks nothing; an
 * unknown ID; a bad flag.
 */
import { createServer, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDoc, material, withTempDir, writeJson } from '../profile/support.js';
import { runCli } from './support.js';

/** A 127.0.0.1 port that nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function expectHarnessExit(result: { code: number | null; stdout: string; stderr: string }, code: string, started = false): void {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(2);
  expect(result.stderr).toContain(`error[${code}]`);
  // A harness error never prints a stack trace; before the run started, no partial summary line either.
  expect(result.stderr).not.toMatch(/\n\s+at /);
  // Once the run started (the target is known), the summary says why it stopped and the reports exist.
  if (started) expect(result.stdout).toMatch(/verdict: error \(exit 2\)/);
  else expect(result.stdout).not.toMatch(/\d+ passed, \d+ failed, \d+ skipped/);
}

describe('run: profile problems exit 2', { timeout: 120_000 }, () => {
  it('a profile file that does not exist', async () => {
    const result = await runCli(['run', '--profile', '/nonexistent/dir/target.json']);
    expectHarnessExit(result, 'PROFILE_NOT_FOUND');
    expect(result.stderr).toContain('/nonexistent/dir/target.json');
  });

  it('a profile that is not JSON', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'broken.json');
      await writeFile(path, '{ "version": 1, ');
      const result = await runCli(['run', '--profile', path]);
      expectHarnessExit(result, 'PROFILE_UNREADABLE');
      expect(result.stderr).toContain('not valid JSON');
    });
  });

  it('a schema-invalid profile names the field', async () => {
    await withTempDir(async (dir) => {
      const doc = fixtureDoc();
      delete doc.baseUrl;
      const path = await writeJson(join(dir, 'invalid.json'), doc);
      const result = await runCli(['run', '--profile', path]);
      expectHarnessExit(result, 'PROFILE_INVALID');
      expect(result.stderr).toContain('baseUrl');
    });
  });

  it('a secret variable that is not set names the variable', async () => {
    await withTempDir(async (dir) => {
      const path = await writeJson(join(dir, 'target.json'), fixtureDoc());
      const result = await runCli(['run', '--profile', path]);
      expectHarnessExit(result, 'PROFILE_SECRET_MISSING');
      expect(result.stderr).toContain('AC_TEST_CLIENT_SECRET');
    });
  });

  it('profile from ACCESS_CONFORMANCE_PROFILE is used like --profile', async () => {
    const result = await runCli(['run'], { env: { ACCESS_CONFORMANCE_PROFILE: '/nonexistent/env/target.json' } });
    expectHarnessExit(result, 'PROFILE_NOT_FOUND');
    expect(result.stderr).toContain('/nonexistent/env/target.json');
  });
});

describe('run: an unreachable target exits 2 naming the URL', { timeout: 120_000 }, () => {
  it('a profile pointing at a closed 127.0.0.1 port', async () => {
    await withTempDir(async (dir) => {
      const { env, all } = await material();
      const port = await closedPort();
      const doc = fixtureDoc();
      doc.baseUrl = `http://127.0.0.1:${port}`;
      doc.hooks.baseUrl = `http://127.0.0.1:${port}/__hooks/v1`;
      const path = await writeJson(join(dir, 'target.json'), doc);
      const result = await runCli(['run', '--profile', path, '--out', join(dir, 'reports')], { env });
      expectHarnessExit(result, 'TARGET_UNREACHABLE', true);
      expect(result.stderr).toContain(`http://127.0.0.1:${port}`);
      for (const secret of all) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    });
  });
});

describe('run: a target that accepts connections and never answers exits 2 within the timeout', { timeout: 120_000 }, () => {
  it('a profile pointing at a 127.0.0.1 port that reads requests and stays silent', async () => {
    const sockets = new Set<Socket>();
    const hung = createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const address = hung.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      await withTempDir(async (dir) => {
        const { env } = await material();
        const doc = fixtureDoc();
        doc.baseUrl = `http://127.0.0.1:${port}`;
        doc.hooks.baseUrl = `http://127.0.0.1:${port}/__hooks/v1`;
        const path = await writeJson(join(dir, 'target.json'), doc);
        const result = await runCli(['run', '--profile', path, '--timeout', '1s', '--out', join(dir, 'reports')], { env, timeoutMs: 60_000 });
        expectHarnessExit(result, 'TARGET_UNREACHABLE', true);
        expect(result.stderr).toContain(`http://127.0.0.1:${port}`);
        expect(result.stderr).toContain('sends no answer');
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });
});

describe('run: selections that check nothing, unknown IDs and bad flags exit 2', { timeout: 120_000 }, () => {
  it('--only with a glob that matches no requirement is a usage error naming the pattern', async () => {
    const result = await runCli(['run', '--only', 'NOPE-*']);
    expectHarnessExit(result, 'USAGE');
    expect(result.stderr).toContain('--only NOPE-* matches no requirement');
  });

  it('--skip that removes every selected check says nothing was checked', async () => {
    const result = await runCli(['run', '--only', 'PAGE-01', '--skip', 'PAGE-*']);
    expectHarnessExit(result, 'NOTHING_SELECTED');
    expect(result.stderr).toContain('--skip');
  });

  it('an unknown exact ID lists near matches', async () => {
    const result = await runCli(['run', '--only', 'PAGE-1']);
    expectHarnessExit(result, 'USAGE');
    expect(result.stderr).toContain('unknown requirement ID "PAGE-1"');
    expect(result.stderr).toMatch(/near matches: .*PAGE-01/);
  });

  it('an --image-network that is not auto, host or bridge', async () => {
    const result = await runCli(['run', '--image', 'img:1', '--image-network', 'sideways']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/image-network/);
    expect(result.stderr).toMatch(/auto.*host.*bridge/);
  });

  it('an unknown flag', async () => {
    const result = await runCli(['run', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown argument/i);
    expect(result.stdout).toBe('');
  });

  it.each([
    [['--concurrency', '0'], '--concurrency'],
    [['--timeout', '-5'], '--timeout'],
    [['--rate-limit', 'fast'], '--rate-limit'],
    [['--reporter', 'xml'], 'unknown reporter "xml"'],
    [['--profile', 'x.json', '--fault', 'any'], '--fault only applies'],
    [['--profile', 'x.json', '--image', 'img:1'], '--profile and --image'],
    [['--image-env', 'A=1'], 'need --image'],
    [['--image-network', 'bridge'], 'need --image'],
    [['--image', 'img:1', '--image-env', 'NOEQUALS'], 'K=V'],
    [['--image', 'img:1', '--image-startup-timeout', 'soon'], '--image-startup-timeout'],
  ])('bad value %j', async (args, message) => {
    const result = await runCli(['run', ...args]);
    expectHarnessExit(result, 'USAGE');
    expect(result.stderr).toContain(message);
  });

  it('a baseline that is not JSON', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'baseline.json');
      await writeFile(path, 'PAGE-01\n');
      const result = await runCli(['run', '--baseline', path]);
      expectHarnessExit(result, 'BASELINE_INVALID');
    });
  });
});
