// The reference image's entrypoint, run as a plain process on 127.0.0.1 (no Docker): it reads the image
// contract from the environment, publishes a valid profile, serves, and stops on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../src/containers/runtime.js';
import { waitForProfile } from '../../src/containers/profile-wait.js';
import { lookupFault } from '../../src/image/fault.js';
import { readImageSettings } from '../../src/image/options.js';
import { loadProfile } from '../../src/profile/index.js';

const ENTRYPOINT = resolve('dist/src/image/entrypoint.js');

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(env: Record<string, string>): { child: ChildProcess; exited: Promise<Exited>; output: () => string } {
  if (!existsSync(ENTRYPOINT)) throw new Error(`${ENTRYPOINT} is missing: run \`npm run build\` first`);
  // Only what the contract gives a container, plus PATH: the parent's CONFORMANCE_* must not leak in.
  const child = spawn(process.execPath, [ENTRYPOINT], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exited>((done) => child.on('close', (code) => done({ code, stdout, stderr })));
  return { child, exited, output: () => stdout + stderr };
}

describe('readImageSettings', () => {
  it('maps the contract', () => {
    const read = readImageSettings({
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:9000/',
      CONFORMANCE_PROFILE_OUT: '/conformance/target-profile.json',
      CONFORMANCE_HOOKS: '1',
      CONFORMANCE_PORT: '9000',
      CONFORMANCE_HOST: '127.0.0.1',
      CONFORMANCE_HARNESS_HOST: '127.0.0.1',
    });
    expect(read).toEqual({
      ok: true,
      settings: {
        publicBaseUrl: 'http://127.0.0.1:9000',
        profileOut: '/conformance/target-profile.json',
        hooks: true,
        host: '127.0.0.1',
        port: 9000,
        jwksHost: '127.0.0.1',
        fault: undefined,
        seed: undefined,
      },
    });
  });

  it('lists every problem', () => {
    const read = readImageSettings({ CONFORMANCE_PROFILE_OUT: 'relative.json', CONFORMANCE_PORT: '99999', CONFORMANCE_HOOKS: 'yes' });
    expect(read.ok).toBe(false);
    const problems = read.ok ? [] : read.problems;
    expect(problems.join('\n')).toMatch(/CONFORMANCE_BASE_URL is not set/);
    expect(problems.join('\n')).toMatch(/CONFORMANCE_PROFILE_OUT must be an absolute path/);
    expect(problems.join('\n')).toMatch(/CONFORMANCE_PORT must be a TCP port/);
    expect(problems.join('\n')).toMatch(/CONFORMANCE_HOOKS must be 1 or 0/);
  });

  it('refuses an unknown fault by name', () => {
    const found = lookupFault('no-such-fault');
    expect(found.ok).toBe(false);
    expect(found.ok ? '' : found.message).toContain('"no-such-fault"');
  });
});

describe('image entrypoint (as a process)', () => {
  let dir: string;
  let running: ChildProcess | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ac-entrypoint-test-'));
  });
  afterEach(async () => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
    running = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 2 naming the missing variables', async () => {
    const { exited } = start({});
    const result = await exited;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('CONFORMANCE_BASE_URL is not set');
    expect(result.stderr).toContain('CONFORMANCE_PROFILE_OUT is not set');
  });

  it('exits 2 on an unknown fault', async () => {
    const { exited } = start({
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:1',
      CONFORMANCE_PROFILE_OUT: join(dir, 'p.json'),
      CONFORMANCE_FAULT: 'no-such-fault',
    });
    const result = await exited;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown fault "no-such-fault"');
  });

  it('publishes a valid profile for the given base URL, serves hooks, and stops on SIGTERM', async () => {
    const port = await freeLoopbackPort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const profileOut = join(dir, 'mounted', 'target-profile.json');
    const started = start({
      CONFORMANCE_BASE_URL: baseUrl,
      CONFORMANCE_PROFILE_OUT: profileOut,
      CONFORMANCE_HOOKS: '1',
      CONFORMANCE_PORT: String(port),
      CONFORMANCE_HOST: '127.0.0.1',
      CONFORMANCE_HARNESS_HOST: '127.0.0.1',
    });
    running = started.child;
    const waited = await waitForProfile({
      path: profileOut,
      timeoutMs: 25_000,
      checkExited: async () => (started.child.exitCode === null ? undefined : `exited with ${started.child.exitCode}`),
    });
    expect(waited.kind, started.output()).toBe('ready');

    const profile = await loadProfile(profileOut);
    expect(profile.baseUrl).toBe(baseUrl);
    expect(profile.hooks?.baseUrl).toBe(`${baseUrl}/__hooks/v1`);
    // Readable by a harness running as another user than the container's.
    expect((await stat(profileOut)).mode & 0o777).toBe(0o644);
    expect(started.output()).toContain(`serving ${baseUrl}`);

    const clock = await fetch(`${profile.hooks?.baseUrl}/clock`, { headers: { authorization: `Bearer ${profile.hooks?.token}` } });
    expect(clock.status).toBe(200);
    expect(typeof ((await clock.json()) as { now: unknown }).now).toBe('number');

    started.child.kill('SIGTERM');
    const result = await started.exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SIGTERM: stopping');
  }, 40_000);
});
