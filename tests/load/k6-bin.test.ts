/**
 * Where the k6 lane takes its k6 from: K6_BIN, then PATH, nothing else; none is a skip whose reason says
 * what to install, and .ci/run's banner says the lane did not run. Stand-in `k6` scripts that answer `k6 version` as k6 does, in scratch folders.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/support.js';
import { findK6, supportedK6 } from './support/k6-bin.js';

const scratch = mkdtempSync(join(tmpdir(), 'ac-k6-bin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder holding an executable `k6` that prints `k6 <version> (…)` for `k6 version`; returns the folder. */
function fakeK6(folder: string, version: string): string {
  const dir = join(scratch, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'k6'), `#!/bin/sh\necho "k6 ${version} (commit/abc, go1.22, linux/amd64)"\n`);
  chmodSync(join(dir, 'k6'), 0o755);
  return dir;
}

const SYSTEM_PATH = ['/usr/bin', '/bin'];

describe('findK6: the k6 the user installed, and only that', () => {
  it('no K6_BIN and no k6 on PATH: a skip that says what to install', async () => {
    const found = await findK6({ PATH: [join(scratch, 'empty'), ...SYSTEM_PATH].join(delimiter) });
    expect(found.k6).toBeUndefined();
    expect(found.skip).toBe(
      'no k6 installed: K6_BIN is not set and no k6 is on PATH (install one of v0.48 to v2.x: https://grafana.com/docs/k6/latest/set-up/install-k6/)',
    );
  });

  it('the first k6 on PATH, with its version', async () => {
    const first = fakeK6('first', 'v1.4.2');
    const second = fakeK6('second', 'v0.48.0');
    const found = await findK6({ PATH: [join(scratch, 'empty'), first, second, ...SYSTEM_PATH].join(delimiter) });
    expect(found.k6).toEqual({ path: join(first, 'k6'), version: 'k6 v1.4.2', source: 'PATH' });
  });

  it('K6_BIN before PATH; a K6_BIN that is not executable is an error, not a skip', async () => {
    const onPath = fakeK6('on-path', 'v2.2.0');
    const given = join(fakeK6('given', 'v0.48.0'), 'k6');
    const found = await findK6({ K6_BIN: given, PATH: [onPath, ...SYSTEM_PATH].join(delimiter) });
    expect(found.k6).toEqual({ path: given, version: 'k6 v0.48.0', source: 'K6_BIN' });
    await expect(findK6({ K6_BIN: join(scratch, 'nothing-here'), PATH: onPath })).rejects.toThrow(`K6_BIN=${join(scratch, 'nothing-here')} is not an executable file`);
  });
});

describe('the k6 versions the scripts support: v0.48 to v2.x', () => {
  it.each([
    ['k6 v0.47.0', false],
    ['k6 v0.48.0', true],
    ['k6 v0.57.1', true],
    ['k6 v1.0.0', true],
    ['k6 v2.2.0', true],
    ['k6 v2.99.3', true],
    ['k6 v3.0.0', false],
    ['k6 (devel)', false],
  ])('%s: %s', (version, supported) => {
    expect(supportedK6(version)).toBe(supported);
  });
});

describe(".ci/run's k6 banner (its k6 block, run as CI runs it)", () => {
  const block = (() => {
    const text = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    return text.slice(text.indexOf('# >>> k6'), text.indexOf('# <<< k6 <<<'));
  })();
  const runBlock = (env: NodeJS.ProcessEnv): string =>
    execFileSync('bash', ['--noprofile', '--norc', '-euo', 'pipefail', '-c', block], { env, encoding: 'utf8', timeout: 15_000 });

  it('says loudly that the k6 lane did not run when no k6 is installed', () => {
    expect(block).toContain('k6_banner');
    const out = runBlock({ PATH: [join(scratch, 'empty'), ...SYSTEM_PATH].join(delimiter) });
    expect(out).toContain('## K6 LANE NOT RUN: no k6 installed (K6_BIN is not set and no k6 is on PATH).');
  });

  it('names the k6 the lane runs under: K6_BIN, else PATH', () => {
    const onPath = fakeK6('ci-path', 'v1.4.2');
    expect(runBlock({ PATH: [onPath, ...SYSTEM_PATH].join(delimiter) })).toBe(
      `k6 lane: runs under k6 v1.4.2 (commit/abc, go1.22, linux/amd64) (${join(onPath, 'k6')}; the scripts support k6 v0.48 to v2.x)\n`,
    );
    const given = join(fakeK6('ci-given', 'v0.48.0'), 'k6');
    expect(runBlock({ K6_BIN: given, PATH: [onPath, ...SYSTEM_PATH].join(delimiter) })).toContain(`k6 v0.48.0 (commit/abc, go1.22, linux/amd64) (${given};`);
  });
});
