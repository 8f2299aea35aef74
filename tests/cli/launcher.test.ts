/** The first words of a printed command: how the harness was started (src/cli/launcher.ts). */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launcherWords } from '../../src/cli/launcher.js';
import { rerunCommand } from '../../src/reporters/rerun.js';

let dir: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-launcher-'));
  script = join(dir, 'clone', 'bin', 'access-conformance.js');
  await mkdir(join(dir, 'clone', 'bin'), { recursive: true });
  await writeFile(script, '');
  await mkdir(join(dir, 'global', 'bin'), { recursive: true });
  await symlink(script, join(dir, 'global', 'bin', 'access-conformance'));
  await mkdir(join(dir, 'project', 'node_modules', '.bin'), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('launcherWords', () => {
  it('npx when npm started it (npx, npm exec, an npm script) or from a node_modules/.bin not on PATH', () => {
    // npx puts node_modules/.bin on the PATH it gives the child: that PATH is not the user's.
    expect(launcherWords({ script, env: { npm_command: 'exec', PATH: join(dir, 'global', 'bin') }, cwd: dir })).toEqual(['npx', 'access-conformance']);
    const bin = join(dir, 'project', 'node_modules', '.bin', 'access-conformance');
    expect(launcherWords({ script: bin, env: { PATH: '/usr/bin' }, cwd: join(dir, 'project') })).toEqual(['npx', 'access-conformance']);
  });

  it('the bare name when the name on PATH is this script', () => {
    const onPath = join(dir, 'global', 'bin', 'access-conformance');
    expect(launcherWords({ script: onPath, env: { PATH: `/usr/bin:${join(dir, 'global', 'bin')}` }, cwd: dir })).toEqual(['access-conformance']);
    // The same script, started by path while PATH holds it: still the name.
    expect(launcherWords({ script, env: { PATH: join(dir, 'global', 'bin') }, cwd: dir })).toEqual(['access-conformance']);
  });

  it('node and the script (relative below the working directory) otherwise: a clone', () => {
    expect(launcherWords({ script, env: { PATH: '/usr/bin' }, cwd: join(dir, 'clone') })).toEqual(['node', join('bin', 'access-conformance.js')]);
    expect(launcherWords({ script, env: { PATH: '/usr/bin' }, cwd: join(dir, 'elsewhere') })).toEqual(['node', script]);
  });

  it('the rerun line starts with the launcher, each word shell-quoted', () => {
    const line = rerunCommand({ kind: 'profile', path: 'my target.json', launcher: ['node', "/tmp/o'k/bin/access-conformance.js"] }, { seed: 's1', strict: false }, 'TOK-01');
    expect(line).toBe(`node '/tmp/o'\\''k/bin/access-conformance.js' run --profile 'my target.json' --only TOK-01 --seed s1`);
  });
});
