/**
 * docs/install.md and the Action's install, kept true: `npm pack` the package (dist/ as `npm test`
 * built it), install the tarball into a scratch prefix without dev dependencies or testcontainers with the
 * Action's own install step (action-install.sh, an empty npm cache as on a fresh runner), run `run` from
 * another folder with the installed binary, then the Action's run step against a served target whose
 * profile takes its secret from the environment (`{"env": …}`, as docs/ci.md's example passes it).
 * Skipped, saying so, when the npm registry does not answer.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServe } from '../cli/support.js';
import { childEnv, packInScratch, runProcess, type PackedWork } from './support.js';
import { skipBecause, skipUnless } from '../support/capabilities.js';

const INSTALL_MS = 240_000;
let work = '';
let tarball = '';
let installed = '';
let online = false;

let scratch: PackedWork | undefined;

beforeAll(async () => {
  scratch = await packInScratch(ROOT, 'ac-install-');
  ({ work, online, tarball } = scratch);
}, 180_000);

afterAll(async () => {
  await scratch?.remove();
});

describe('the packed package', () => {
  it('is about a megabyte and carries the compiled CLI and suites', async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install cannot be tried');
    const size = (await stat(tarball)).size;
    expect(size).toBeLessThan(3_000_000);
    const list = await runProcess('tar', ['-tzf', tarball], { timeoutMs: 30_000 });
    expect(list.stdout).toContain('package/dist/src/cli/main.js');
    expect(list.stdout).toContain('package/dist/src/action/run.js');
    expect(list.stdout).toContain('package/action-install.sh');
    expect(list.stdout).toMatch(/package\/dist\/suites\/.*\.js/);
  });

  it("installs with the Action's install step, without dev dependencies or testcontainers, and says how long it took", async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install cannot be tried');
    const output = join(work, 'github-output');
    const result = await runProcess('bash', [join(ROOT, 'action-install.sh')], {
      cwd: work,
      // An empty cache, as on a fresh runner: every dependency comes from the registry.
      env: childEnv({ INPUT_PACKAGE: tarball, RUNNER_TEMP: join(work, 'runner-temp'), GITHUB_OUTPUT: output, GITHUB_ACTION_PATH: ROOT, npm_config_cache: join(work, 'npm-cache') }),
      timeoutMs: INSTALL_MS,
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const line = /access-conformance: installed .* in ([\d.]+) s/.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    process.stdout.write(`[install.e2e] ${line![0]}\n`);
    installed = /^dir=(.*)$/m.exec(await readFile(output, 'utf8'))![1]!;
    const modules = join(installed, '..');
    expect(existsSync(join(modules, 'testcontainers')), 'the optional peer testcontainers was installed').toBe(false);
    expect(existsSync(join(modules, 'typescript')), 'a dev dependency was installed').toBe(false);
    expect(existsSync(join(modules, 'undici'))).toBe(true);
  }, INSTALL_MS + 10_000);

  it('runs from another folder: the embedded reference, and --image says what to install', async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install cannot be tried');
    if (installed === '') skipBecause(ctx, 'the install did not happen (see the test before)');
    const elsewhere = join(work, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    const bin = join(installed, '..', '.bin', 'access-conformance');
    const result = await runProcess(bin, ['run', '--only', 'OWN-*', '--reporter', 'json', '--out', 'reports'], { cwd: elsewhere, timeoutMs: 120_000 });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const report = JSON.parse(await readFile(join(elsewhere, 'reports', 'report.json'), 'utf8')) as { totals: { passed: number; failed: number } };
    expect(report.totals.failed).toBe(0);
    expect(report.totals.passed).toBeGreaterThan(0);
    const image = await runProcess(bin, ['run', '--image', 'nothing:here'], { cwd: elsewhere, timeoutMs: 60_000 });
    expect(image.code).toBe(2);
    expect(image.stderr).toContain('DEPENDENCY_MISSING');
  }, 180_000);

  it("the Action's run step passes a profile secret from the step's env", async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install cannot be tried');
    if (installed === '') skipBecause(ctx, 'the install did not happen (see the test before)');
    const workspace = join(work, 'workspace');
    await mkdir(workspace, { recursive: true });
    const served = join(workspace, 'served.target.json');
    const server = await startServe(['--profile-out', served], served);
    try {
      const profile = JSON.parse(await readFile(served, 'utf8')) as { credentials: { primary: { clientSecret: unknown } } };
      const secret = profile.credentials.primary.clientSecret as string;
      profile.credentials.primary.clientSecret = { env: 'TARGET_CLIENT_SECRET' };
      await writeFile(join(workspace, 'target.json'), JSON.stringify(profile));
      const output = join(work, 'run-output');
      const summary = join(work, 'step-summary.md');
      const result = await runProcess(process.execPath, [join(installed, 'dist', 'src', 'action', 'run.js')], {
        cwd: workspace,
        env: childEnv({
          GITHUB_ACTIONS: 'true',
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: summary,
          INPUT_PROFILE: 'target.json',
          INPUT_REPORTERS: 'json,markdown,github',
          INPUT_ARGS: '--only OWN-*',
          TARGET_CLIENT_SECRET: secret,
        }),
        timeoutMs: 120_000,
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(await readFile(output, 'utf8')).toContain('verdict=conformant');
      expect(await readFile(summary, 'utf8')).toContain('conformant');
      expect(result.stdout + (await readFile(join(workspace, 'reports', 'report.json'), 'utf8'))).not.toContain(secret);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
