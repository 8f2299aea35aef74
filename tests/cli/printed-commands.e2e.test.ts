/**
 * Printed commands run as printed (issue 31): every `rerun:` and `reproduce:` line, pasted into a shell where
 * the run was started, runs. Tried three ways against a faulty `serve`: from a clone (`node
 * bin/access-conformance.js`), from an npx set-up (the packed tarball installed in a scratch project, `npx
 * access-conformance`), and the tarball installed globally (`npm install --global --prefix`, its bin on PATH:
 * `access-conformance`). The lines go through
 * `bash -c` with a PATH that has no access-conformance unless the installed set-up put it there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, packInScratch, runProcess, type PackedWork } from '../package/support.js';
import { BIN, ROOT, startServe, type StartedProcess } from './support.js';
import { skipUnless } from '../support/capabilities.js';

const FAULT = 'hmac-decoded-key';
let scratch: PackedWork;
let server: StartedProcess;
let profile: string;
let project = '';
let globalBin = '';

/** PATH without any folder that holds an access-conformance (a developer's global install). */
function barePath(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => !/access-conformance|node_modules/.test(dir)).join(delimiter);
}

beforeAll(async () => {
  scratch = await packInScratch(ROOT, 'ac-printed-');
  profile = join(scratch.work, 'target.json');
  server = await startServe(['--port', '0', '--fault', FAULT, '--profile-out', profile, '--out', join(scratch.work, 'serve')], profile);
  if (scratch.online) {
    project = join(scratch.work, 'project');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'package.json'), '{"name":"scratch","private":true}\n');
    const install = await runProcess('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', scratch.tarball], { cwd: project, timeoutMs: 300_000 });
    if (install.code !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
    // A global install, into a prefix of its own: its bin folder is what a user has on PATH.
    const prefix = join(scratch.work, 'global');
    const global = await runProcess('npm', ['install', '--global', '--prefix', prefix, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', scratch.tarball], { cwd: scratch.work, timeoutMs: 300_000 });
    if (global.code !== 0) throw new Error(`npm install --global of the tarball failed: ${global.stderr}`);
    globalBin = join(prefix, 'bin');
  }
}, 360_000);
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

/** The printed lines of one label (`rerun`, `reproduce`) that are commands. */
function printed(stdout: string, label: 'rerun' | 'reproduce'): string[] {
  return [...stdout.matchAll(new RegExp(`^\\s+${label}: (.+)$`, 'gm'))].map((m) => m[1]!).filter((line) => !line.startsWith('no standalone command'));
}

/** Runs the harness the given way, then pastes its first rerun and reproduce lines into bash there. */
async function pasteBack(start: string, cwd: string, path: string, expectedPrefix: string): Promise<void> {
  // Without the npm_* variables of the npx that started vitest: a shell where the user types the command.
  const env = Object.fromEntries(Object.entries(childEnv({ PATH: path })).filter(([name]) => !name.startsWith('npm_')));
  const out = join(scratch.work, `out-${expectedPrefix.replace(/\W+/g, '-')}`);
  const run = await runProcess('bash', ['-c', `${start} run --profile '${profile}' --only 'WH-01,WH-HMAC-08' --reporter json --out '${out}'`], { cwd, env, timeoutMs: 150_000 });
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  const reruns = printed(run.stdout, 'rerun');
  const reproductions = printed(run.stdout, 'reproduce');
  expect(reruns.length, run.stdout).toBeGreaterThan(0);
  expect(reproductions.length, run.stdout).toBeGreaterThan(0);
  for (const line of [...reruns, ...reproductions]) expect(line.startsWith(`${expectedPrefix} `), line).toBe(true);

  // The rerun runs the check again against the same target: it fails again (exit 1), not 127 or 2.
  const rerun = await runProcess('bash', ['-c', reruns[0]!], { cwd, env, timeoutMs: 150_000 });
  expect(rerun.code, `${reruns[0]}\n${rerun.stdout}\n${rerun.stderr}`).toBe(1);
  // The reproduction sends the recorded request again; it runs (0: sent and answered as recorded, 1: not).
  const reproduce = await runProcess('bash', ['-c', reproductions[0]!], { cwd, env, timeoutMs: 60_000 });
  expect(reproduce.stderr).not.toContain('command not found');
  expect([0, 1], `${reproductions[0]}\n${reproduce.stdout}\n${reproduce.stderr}`).toContain(reproduce.code);
}

describe('rerun and reproduce lines pasted into bash where the run was started', () => {
  it('from a clone: node bin/access-conformance.js', async () => {
    await pasteBack(`node '${BIN}'`, ROOT, barePath(), 'node bin/access-conformance.js');
  }, 300_000);

  it('from an npx set-up: npx access-conformance', async (ctx) => {
    skipUnless(ctx, 'registry', scratch.online, 'the npm registry does not answer (npm ping): the tarball cannot be installed');
    await pasteBack('npx --no-install access-conformance', project, barePath(), 'npx access-conformance');
  }, 300_000);

  it('installed globally, on PATH: access-conformance', async (ctx) => {
    skipUnless(ctx, 'registry', scratch.online, 'the npm registry does not answer (npm ping): the tarball cannot be installed');
    await pasteBack('access-conformance', scratch.work, `${globalBin}${delimiter}${barePath()}`, 'access-conformance');
  }, 300_000);
});
