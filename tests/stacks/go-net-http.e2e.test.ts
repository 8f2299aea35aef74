/**
 * A real implementation on another stack: fixtures/stacks/go-net-http, service.md written on Go's standard
 * library with its defaults where the spec is open. It is built with the Go toolchain, started on 127.0.0.1
 * (port 0, its own profile), and run against by the CLI's default `run --profile`. Issue 20's promise: an
 * implementation on that stack that follows service.md passes (exit 0, no MUST check failed), and the SHOULD
 * checks it warns on are exactly those the variants of the `stack-go-net-http` declaration warn on.
 * Without a Go toolchain the file skips and says which toolchain is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackSubject } from '../../src/mutation/verify-variants.js';
import { allRequirements } from '../../src/requirements.js';
import { getStack } from '../../src/variants/index.js';
import { ROOT, runCli, startWithProfile, type CliResult, type StartedProcess } from '../cli/support.js';
import { probeFails } from './support.js';

const SOURCE = join(ROOT, 'fixtures', 'stacks', 'go-net-http');
// Debian's golang-1.19-go installs outside PATH; any other Go on PATH builds it too (it needs no module).
const DEBIAN_GO = '/usr/lib/go-1.19/bin/go';
const go = [DEBIAN_GO, 'go'].find((candidate) => (!candidate.startsWith('/') || existsSync(candidate)) && probeFails(candidate, ['version']) === undefined);
const missing = go === undefined ? `no Go toolchain: neither ${DEBIAN_GO} nor \`go\` on PATH (apt install golang-1.19-go)` : undefined;

interface ReportResult {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO';
  state: string;
  failure?: { message: string };
}

describe.skipIf(missing !== undefined)(`Go net/http + encoding/json stack${missing ? ` (SKIPPED: ${missing})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-stack-go-'));
  const profile = join(dir, 'go.target.json');
  let server: StartedProcess | undefined;
  let run: CliResult;
  let results: ReportResult[] = [];

  beforeAll(async () => {
    const binary = join(dir, 'accessgov');
    // A private build cache and no module proxy: the program imports the standard library only.
    const build = spawnSync(go!, ['build', '-o', binary, '.'], {
      cwd: SOURCE,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, GOCACHE: join(dir, 'gocache'), GOPATH: join(dir, 'gopath'), GOPROXY: 'off', GOFLAGS: '', GOTOOLCHAIN: 'local' },
    });
    if (build.status !== 0) throw new Error(`go build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
    server = await startWithProfile(binary, ['-profile', profile], profile, { label: 'the Go program', timeoutMs: 30_000 });
    run = await runCli(['run', '--profile', profile, '--reporter', 'json', '--out', join(dir, 'reports')], { timeoutMs: 240_000 });
    results = (JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as { results: ReportResult[] }).results;
  }, 540_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the default run: exit 0, every MUST check passed', () => {
    const notPassed = results.filter((result) => result.level === 'MUST' && result.state !== 'passed');
    expect(notPassed.map((result) => `${result.id} ${result.state}: ${result.failure?.message ?? ''}`), server?.output()).toEqual([]);
    expect(results.filter((result) => result.level === 'MUST').length).toBe(allRequirements().filter((req) => req.level === 'MUST').length);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(0);
  });

  it('fails exactly the SHOULD checks the stack-go-net-http variants declare (what --strict fails)', () => {
    const failed = results.filter((result) => result.level === 'SHOULD' && result.state !== 'passed').map((result) => result.id);
    expect(failed.sort()).toEqual([...stackSubject(getStack('stack-go-net-http')!).warns].sort());
  });
});
