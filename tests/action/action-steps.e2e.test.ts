/**
 * action.yml itself, run as GitHub's runner runs a composite action (tests/action/support/composite-runner.ts):
 * parsed from the file, inputs over their defaults, each bash step through `bash --noprofile --norc -eo
 * pipefail`, outputs passed from the install step to the run step through GITHUB_OUTPUT, and the action's
 * outputs evaluated from its `value:` expressions. The package input is the tarball `npm pack` makes of this
 * checkout, so the steps install and run what would be published. actions/setup-node is not downloaded: its
 * `with:` is checked against its inputs and the machine's Node stands in for the one it would install.
 * The three runs share one RUNNER_TEMP, as three uses of the action in one job do. Skipped, saying so,
 * when the npm registry does not answer (the install step needs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/support.js';
import { childEnv, packInScratch, type PackedWork } from '../package/support.js';
import { parseYamlSource } from '../yaml/support/yaml-sources.js';
import { runComposite, type ActionResult, type CompositeAction, type CompositeStep } from './support/composite-runner.js';

/** actions/setup-node v6's inputs (its action.yml), for the `with:` this action gives it. */
const SETUP_NODE_INPUTS = ['node-version', 'node-version-file', 'architecture', 'check-latest', 'registry-url', 'scope', 'token', 'cache', 'package-manager-cache', 'cache-dependency-path', 'mirror', 'mirror-token'];
const INSTALL_MS = 240_000;

let work = '';
let runnerTemp = '';
let tarball = '';
let online = false;
const action = parseYamlSource({ origin: 'action.yml', file: 'action.yml', firstLine: 1, text: await readFile(join(ROOT, 'action.yml'), 'utf8') }) as CompositeAction;

let scratch: PackedWork | undefined;

beforeAll(async () => {
  scratch = await packInScratch(ROOT, 'ac-action-steps-');
  ({ work, online, tarball } = scratch);
  runnerTemp = join(work, 'runner-temp');
  await mkdir(runnerTemp);
}, 180_000);

afterAll(async () => {
  await scratch?.remove();
});

async function useAction(name: string, withValues: Record<string, string>): Promise<{ result: ActionResult; workspace: string; nodeVersions: string[] }> {
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
    actionPath: ROOT,
    workspace,
    runnerTemp,
    with: { package: tarball, ...withValues },
    env: childEnv(),
    uses: setupNode,
    stepTimeoutMs: INSTALL_MS,
  });
  return { result, workspace, nodeVersions };
}

const logs = (result: ActionResult): string => result.steps.map((step) => `--- ${step.name} (${step.outcome})\n${step.log}`).join('\n');

describe('action.yml, run as the runner runs a composite action', () => {
  it('a conformant selection: every step passes, the install hands its folder to the run, the outputs say conformant', async (ctx) => {
    ctx.skip(!online, 'the npm registry does not answer (npm ping): the install step cannot run');
    const { result, workspace, nodeVersions } = await useAction('pass', { reporters: 'json', out: 'conformance', args: '--only WH-HMAC-01' });
    expect(result.failed, logs(result)).toBe(false);
    expect(result.steps.map((step) => step.outcome)).toEqual(['uses', 0, 0]);
    expect(nodeVersions).toEqual(['24']);
    const [, install, run] = result.steps;
    expect(install!.log).toMatch(/access-conformance: installed .*\.tgz in [\d.]+ s/);
    const dir = install!.outputs.dir!;
    expect(dir).toBe(join(runnerTemp, 'access-conformance-action', 'node_modules', 'access-conformance'));
    expect(existsSync(join(dir, '..', 'typescript')), 'a dev dependency was installed').toBe(false);
    expect(run!.log).toContain('access-conformance run --reporter json --out conformance --only WH-HMAC-01');
    expect(result.outputs).toEqual({ 'exit-code': '0', verdict: 'conformant', 'report-dir': join(workspace, 'conformance') });
    expect(run!.summary).toContain('**access-conformance**: conformant (exit 0)');
    const report = JSON.parse(await readFile(join(workspace, 'conformance', 'report.json'), 'utf8')) as { totals: { passed: number; failed: number } };
    expect(report.totals).toMatchObject({ passed: 1, failed: 0 });
  }, 2 * INSTALL_MS);

  it('a failing target: the run step fails the action, and the outputs still say why', async (ctx) => {
    ctx.skip(!online, 'the npm registry does not answer (npm ping): the install step cannot run');
    const { result, workspace } = await useAction('fail', { reporters: 'markdown', 'node-version': '22', args: '--only\nWH-HMAC-01\n--fault\nhmac-hex-digest\n' });
    expect(result.failed, logs(result)).toBe(true);
    expect(result.steps.map((step) => step.outcome), logs(result)).toEqual(['uses', 0, 1]);
    expect(result.outputs).toEqual({ 'exit-code': '1', verdict: 'not-conformant', 'report-dir': join(workspace, 'reports') });
    expect(result.steps[2]!.summary).toContain('WH-HMAC-01');
  }, 2 * INSTALL_MS);

  it('inputs are never given to a shell: command substitutions in them stay text, and a bad profile is exit 2', async (ctx) => {
    ctx.skip(!online, 'the npm registry does not answer (npm ping): the install step cannot run');
    const { result, workspace } = await useAction('hostile', { profile: '$(touch pwned-profile)', args: "--only 'WH-HMAC-01;touch pwned-args' `touch pwned-tick`" });
    expect(result.steps.map((step) => step.outcome), logs(result)).toEqual(['uses', 0, 2]);
    expect(result.outputs['verdict']).toBe('error');
    expect(result.steps[2]!.log).toContain('$(touch pwned-profile)');
    expect((await readdir(workspace)).filter((file) => file.startsWith('pwned'))).toEqual([]);
  }, 2 * INSTALL_MS);
});
