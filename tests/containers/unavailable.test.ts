// Without a reachable Docker engine, `run --image` is a harness error with a hint, not a crash. Where an
// engine runs here, it is hidden from one child process by a private mount namespace (root and `unshare`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipUnless } from '../support/capabilities.js';

const CLI = resolve('bin/access-conformance.js');
const SOCKET = '/var/run/docker.sock';

function canHideEngine(): boolean {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('unshare', ['-m', 'true'], { stdio: 'ignore' }).status === 0;
}

describe('run --image without a Docker engine', () => {
  it('exits 2 with DOCKER_UNAVAILABLE and a hint', (ctx) => {
    const engineVisible = existsSync(SOCKET) || process.env.DOCKER_HOST !== undefined;
    const hide = engineVisible && canHideEngine();
    skipUnless(ctx, 'unshare', !engineVisible || hide, 'an engine is reachable and cannot be hidden (needs root and unshare)');
    skipUnless(ctx, 'dist', existsSync(resolve('dist/src/cli/main.js')), 'dist/ is missing: run `npm run build` first');
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_') && name !== 'DOCKER_HOST' && !name.startsWith('TESTCONTAINERS_')),
    );
    const args = ['run', '--image', 'access-conformance-reference:any', '--out', join(tmpdir(), 'ac-no-engine-report')];
    // A tmpfs over /run (where /var/run/docker.sock lives) in a private mount namespace: only this child
    // loses the socket.
    const result = hide
      ? spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs none /run && exec "$0" "$@"', process.execPath, CLI, ...args], {
          env,
          encoding: 'utf8',
          timeout: 60_000,
        })
      : spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('error[DOCKER_UNAVAILABLE]');
    expect(result.stderr).toContain('hint:');
  }, 70_000);
});
