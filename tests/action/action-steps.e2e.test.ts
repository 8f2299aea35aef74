/**
 * action.yml itself, run as GitHub's runner runs a composite action (tests/action/support/composite-runner.ts):
 * parsed from the file, inputs over their defaults, each bash step through `bash --noprofile --norc -eo
 * pipefail`, outputs passed from the install step to the run step through GITHUB_OUTPUT, and the action's
 * outputs evaluated from its `value:` expressions. The action is used as `uses: <owner>/<repo>@<ref>` is:
 * from a bare clone of this repository (`git clone --bare`), the files of the commit under test laid out
 * as the runner lays out an action it downloads (no .git, no node_modules, no dist/), with no `package`
 * input: the package is in no registry, so the action must install itself from that checkout. One use
 * gives `package` a tarball `npm pack` made instead. actions/setup-node is not downloaded: its `with:` is
 * checked against its inputs and the machine's Node stands in for the one it would install. The runs share
 * one RUNNER_TEMP and one action folder, as uses of the action in one job do. Skipped, saying so, when the
 * npm registry does not answer (installing the dependencies needs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/support.js';
import { childEnv, packInScratch, type PackedWork } from '../package/support.js';
import { parseYamlSource } from '../yaml/support/yaml-sources.js';
import { runComposite, type ActionResult, type CompositeAction, type CompositeStep } from './support/composite-runner.js';
import { skipUnless } from '../support/capabilities.js';

/** actions/setup-node v6's inputs (its action.yml), for the `with:` this action gives it. */
const SETUP_NODE_INPUTS = ['node-version', 'node-version-file', 'architecture', 'check-latest', 'registry-url', 'scope', 'token', 'cache', 'package-manager-cache', 'cache-dependency-path', 'mirror', 'mirror-token'];
const INSTALL_MS = 240_000;
/** The first use builds the checkout (npm ci of every dependency, tsc) before it installs. */
const BUILD_MS = 600_000;

let work = '';
let actionPath = '';
let runnerTemp = '';
let tarball = '';
let online = false;
let action: CompositeAction;

let scratch: PackedWork | undefined;

/**
 * The commit under test (HEAD, or HEAD with the tracked files' uncommitted changes, as `git stash create`
 * records them without touching the worktree) from a bare clone, laid out as the runner lays out
 * `<owner>/<repo>@<ref>` under _actions: the commit's files and nothing else.
 */
function actionCheckout(into: string): string {
  const git = (args: string[], cwd = ROOT): string => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const bare = join(into, 'access-conformance.git');
  git(['clone', '--bare', '--quiet', ROOT, bare]);
  const commit = git(['stash', 'create']) || git(['rev-parse', 'HEAD']);
  git(['push', '--quiet', bare, `${commit}:refs/heads/under-test`]);
  const path = join(into, '_actions', 'owner', 'access-conformance', 'under-test');
  execFileSync('mkdir', ['-p', path]);
  execFileSync('bash', ['-o', 'pipefail', '-c', 'git --git-dir "$1" archive under-test | tar -x -C "$2"', 'archive', bare, path]);
  return path;
}

beforeAll(async () => {
  scratch = await packInScratch(ROOT, 'ac-action-steps-');
  ({ work, online, tarball } = scratch);
  runnerTemp = join(work, 'runner-temp');
  await mkdir(runnerTemp);
  actionPath = actionCheckout(work);
  // The runner reads the action's metadata from the folder it laid out.
  action = parseYamlSource({ origin: 'action.yml', file: 'action.yml', firstLine: 1, text: await readFile(join(actionPath, 'action.yml'), 'utf8') }) as CompositeAction;
}, 180_000);

afterAll(async () => {
  await scratch?.remove();
});

async function useAction(name: string, withValues: Record<string, string>, stepTimeoutMs = INSTALL_MS): Promise<{ result: ActionResult; workspace: string; nodeVersions: string[] }> {
  const workspace = join(work, name);
  await mkdir(workspace);
  const nodeVersions: string[] = [];
  const setupNode = async (step: CompositeStep, given: Record<string, string>): Promise<string[]> => {
    expect(step.uses).toMatch(/^actions\/setup-node@v\d+$/);
    for (const key of Object.keys(given)) expect(SETUP_NODE_INPUTS, `setup-node has no input ${key}`).toContain(key);
    nodeVersions.push(given['node-version']!);
    return [];
  };
  const result = await runComposite(action, {
    actionPath,
    workspace,
    runnerTemp,
    with: withValues,
    env: childEnv(),
    uses: setupNode,
    stepTimeoutMs,
  });
  return { result, workspace, nodeVersions };
}

const logs = (result: ActionResult): string => result.steps.map((step) => `--- ${step.name} (${step.outcome})\n${step.log}`).join('\n');

describe('action.yml, run as the runner runs a composite action', () => {
  it('from a bare copy of the repository, with no package input: it builds and installs itself, the run passes, the outputs say conformant', async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install step cannot run');
    expect(existsSync(join(actionPath, 'dist')), 'the laid-out checkout has no build').toBe(false);
    expect(existsSync(join(actionPath, 'action.yml'))).toBe(true);
    const { result, workspace, nodeVersions } = await useAction('pass', { reporters: 'json', out: 'conformance', args: '--only WH-HMAC-01' }, BUILD_MS);
    expect(result.failed, logs(result)).toBe(false);
    expect(result.steps.map((step) => step.outcome)).toEqual(['uses', 0, 0]);
    expect(nodeVersions).toEqual(['24']);
    const [, install, run] = result.steps;
    process.stdout.write(`[action-steps.e2e] ${install!.log.split('\n').filter((line) => line.startsWith('access-conformance:')).join(' · ')}\n`);
    expect(install!.log).toMatch(/access-conformance: built the action's checkout \(npm ci, tsc\) in [\d.]+ s/);
    expect(install!.log).toMatch(/access-conformance: installed .*access-conformance-[\d.]+\.tgz in [\d.]+ s/);
    const dir = install!.outputs.dir!;
    expect(dir).toBe(join(runnerTemp, 'access-conformance-action', 'node_modules', 'access-conformance'));
    expect(existsSync(join(dir, '..', 'typescript')), 'a dev dependency was installed').toBe(false);
    expect(run!.log).toContain('access-conformance run --reporter json --out conformance --only WH-HMAC-01');
    expect(result.outputs).toEqual({ 'exit-code': '0', verdict: 'conformant', 'report-dir': join(workspace, 'conformance') });
    expect(run!.summary).toContain('**access-conformance**: conformant (exit 0)');
    const report = JSON.parse(await readFile(join(workspace, 'conformance', 'report.json'), 'utf8')) as { totals: { passed: number; failed: number } };
    expect(report.totals).toMatchObject({ passed: 1, failed: 0 });
  }, BUILD_MS + INSTALL_MS);

  it('a failing target: the run step fails the action, and the outputs still say why', async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install step cannot run');
    // A tarball `npm pack` made, as a release asset would be given.
    const { result, workspace } = await useAction('fail', { package: tarball, reporters: 'markdown', 'node-version': '22', args: '--only\nWH-HMAC-01\n--fault\nhmac-hex-digest\n' });
    expect(result.steps[1]!.log).toContain(`access-conformance: installed ${tarball} in`);
    expect(result.failed, logs(result)).toBe(true);
    expect(result.steps.map((step) => step.outcome), logs(result)).toEqual(['uses', 0, 1]);
    expect(result.outputs).toEqual({ 'exit-code': '1', verdict: 'not-conformant', 'report-dir': join(workspace, 'reports') });
    expect(result.steps[2]!.summary).toContain('WH-HMAC-01');
  }, 2 * INSTALL_MS);

  it('inputs are never given to a shell: command substitutions in them stay text, and a bad profile is exit 2', async (ctx) => {
    skipUnless(ctx, 'registry', online, 'the npm registry does not answer (npm ping): the install step cannot run');
    // The same action folder as the first use, built by it: packed again, not built again.
    const { result, workspace } = await useAction('hostile', { profile: '$(touch pwned-profile)', args: "--only 'WH-HMAC-01;touch pwned-args' `touch pwned-tick`" });
    expect(result.steps[1]!.log).not.toContain('built the action');
    expect(result.steps.map((step) => step.outcome), logs(result)).toEqual(['uses', 0, 2]);
    expect(result.outputs['verdict']).toBe('error');
    expect(result.steps[2]!.log).toContain('$(touch pwned-profile)');
    expect((await readdir(workspace)).filter((file) => file.startsWith('pwned'))).toEqual([]);
  }, 2 * INSTALL_MS);
});
