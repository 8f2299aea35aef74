/**
 * A real implementation on another stack: fixtures/stacks/go-net-http, service.md written on Go's standard
 * library with its defaults where the spec is open. It is built with the Go toolchain, started on 127.0.0.1
 * (port 0, its own profile), and run against by the CLI's default `run --profile`. Issue 20's promise: an
 * implementation on that stack that follows service.md passes (exit 0, no MUST check failed), and the SHOULD
 * checks it warns on are exactly those the variants of the `stack-go-net-http` declaration warn on.
 * Without a Go toolchain the file skips and says which toolchain is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startWithProfile } from '../cli/support.js';
import { describeStackRun, probeFails } from './support.js';

const SOURCE = join(ROOT, 'fixtures', 'stacks', 'go-net-http');
// Debian's golang-1.19-go installs outside PATH; any other Go on PATH builds it too (it needs no module).
const DEBIAN_GO = '/usr/lib/go-1.19/bin/go';
const go = [DEBIAN_GO, 'go'].find((candidate) => (!candidate.startsWith('/') || existsSync(candidate)) && probeFails(candidate, ['version']) === undefined);
const missing = go === undefined ? `no Go toolchain: neither ${DEBIAN_GO} nor \`go\` on PATH (apt install golang-1.19-go)` : undefined;

describeStackRun('Go net/http + encoding/json stack', 'stack-go-net-http', missing === undefined ? undefined : { capability: 'go', reason: missing }, async (dir, profile) => {
  const binary = join(dir, 'accessgov');
  // A private build cache and no module proxy: the program imports the standard library only.
  const build = spawnSync(go!, ['build', '-o', binary, '.'], {
    cwd: SOURCE,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, GOCACHE: join(dir, 'gocache'), GOPATH: join(dir, 'gopath'), GOPROXY: 'off', GOFLAGS: '', GOTOOLCHAIN: 'local' },
  });
  if (build.status !== 0) throw new Error(`go build failed (${build.status ?? build.signal}):\n${build.stdout}\n${build.stderr}`);
  return startWithProfile(binary, ['-profile', profile], profile, { label: 'the Go program', timeoutMs: 30_000 });
}, 540_000);
