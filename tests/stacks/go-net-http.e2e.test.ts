/**
 * A real implementation on another stack: fixtures/stacks/go-net-http, service.md written on Go's standard
 * library with its defaults where the spec is open. It is built with the Go toolchain, started on 127.0.0.1
 * (port 0, its own profile), and run against by the CLI's default `run --profile`. Issue 20's promise: an
 * implementation on that stack that follows service.md passes (exit 0, no MUST check failed), and the SHOULD
 * checks it warns on are exactly those the variants of the `stack-go-net-http` declaration warn on.
 * Without a Go toolchain the file skips and says which toolchain is missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STACKS, stackVariants } from '../../src/variants/index.js';
import { ROOT, runCli } from '../cli/support.js';

const SOURCE = join(ROOT, 'fixtures', 'stacks', 'go-net-http');
const GO_CANDIDATES = ['/usr/lib/go-1.19/bin/go', 'go'];

function findGo(): string | undefined {
  for (const candidate of GO_CANDIDATES) {
    if (candidate.startsWith('/') && !existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ['version'], { encoding: 'utf8', timeout: 10_000 });
    if (probe.status === 0 && /^go version go1\.\d+/.test(probe.stdout)) return candidate;
  }
  return undefined;
}

const go = findGo();
const title = go
  ? 'a Go net/http + encoding/json implementation of service.md'
  : `a Go net/http implementation (SKIPPED: no Go toolchain: neither ${GO_CANDIDATES[0]} nor \`go\` on PATH; Debian package golang-1.19-go)`;

interface Result {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO';
  state: string;
}

describe.skipIf(!go)(title, () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let output = '';
  const profile = (): string => join(dir, 'go.target.json');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'access-conformance-go-'));
    const binary = join(dir, 'accessgov');
    // A private build cache and no module proxy: the program imports the standard library only.
    const build = spawnSync(go!, ['build', '-o', binary, '.'], {
      cwd: SOURCE,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, GOCACHE: join(dir, 'gocache'), GOPATH: join(dir, 'gopath'), GOPROXY: 'off', GOFLAGS: '', GOTOOLCHAIN: 'local' },
    });
    if (build.status !== 0) throw new Error(`go build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
    server = spawn(binary, ['-profile', profile()], { stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // It writes the profile, then prints where it listens: wait for both, bounded.
    const deadline = Date.now() + 30_000;
    while (!(existsSync(profile()) && /listening on http:\/\/127\.0\.0\.1:\d+/.test(output))) {
      if (server.exitCode !== null) throw new Error(`the Go program exited with ${server.exitCode}: ${output}`);
      if (Date.now() > deadline) throw new Error(`the Go program wrote no profile in 30 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 300_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      const killer = setTimeout(() => server!.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('passes the default run (exit 0, no MUST check failed) and warns on exactly the Go stack\'s declared SHOULD checks', async () => {
    const out = join(dir, 'reports');
    const run = await runCli(['run', '--profile', profile(), '--reporter', 'json', '--out', out], { timeoutMs: 240_000 });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: Result[] };
    const notPassed = (level: Result['level']): string[] =>
      report.results.filter((r) => r.level === level && r.state !== 'passed').map((r) => `${r.id} ${r.state}`).sort();
    expect(notPassed('MUST'), run.stdout.slice(-4000)).toEqual([]);
    expect(run.code, run.stdout.slice(-4000) + run.stderr).toBe(0);
    const stack = STACKS.find((s) => s.name === 'stack-go-net-http')!;
    const declared = [...new Set(stackVariants(stack).flatMap((variant) => variant.warns))].map((id) => `${id} failed`).sort();
    expect(notPassed('SHOULD')).toEqual(declared);
  }, 300_000);
});
