/**
 * A composite action run the way GitHub's runner runs one (docs.github.com, "Metadata syntax": runs for
 * composite actions; "Workflow commands": environment files), for the parts action.yml uses:
 * - inputs: the caller's `with:` over each input's default; `${{ inputs.x }}` and
 *   `${{ steps.<id>.outputs.<name> }}` substituted in a step's env, with, name and working-directory;
 *   a composite action's run steps get no INPUT_* variables (unlike a JavaScript action);
 * - `shell: bash`: the script (expressions substituted) written to a file under RUNNER_TEMP and run as
 *   `bash --noprofile --norc -eo pipefail <file>`, in the workspace, with GITHUB_ACTION_PATH (the action's
 *   folder), GITHUB_WORKSPACE, RUNNER_TEMP, CI, GITHUB_ACTIONS, and a fresh GITHUB_OUTPUT, GITHUB_ENV,
 *   GITHUB_PATH and GITHUB_STEP_SUMMARY file per step, read back after it (`name=value` and
 *   `name<<DELIMITER` blocks);
 * - a failed step (non-zero exit) fails the action and skips the steps after it (none has `if:`);
 * - the action's outputs are evaluated at the end, failed or not.
 * A `uses:` step is handed to the caller (the test cannot download actions); any other shell, or an
 * expression beyond a property read, is refused by name.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { inputDefaults } from '../../yaml/support/action-metadata.js';
import { substitute } from '../../yaml/support/expressions.js';

export interface CompositeStep {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'working-directory'?: string;
}

export interface CompositeAction {
  inputs?: Record<string, unknown>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: CompositeStep[] };
}

export interface StepRecord {
  name: string;
  /** The exit code, or 'uses' for a step the caller handled. */
  outcome: number | 'uses';
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface RunnerSetup {
  actionPath: string;
  workspace: string;
  runnerTemp: string;
  /** The caller's `with:`. */
  with: Record<string, string>;
  /** The job's environment plus the calling step's `env:`. */
  env: NodeJS.ProcessEnv;
  /** Handles a `uses:` step (its `with:` already evaluated); may return PATH entries it added. */
  uses: (step: CompositeStep, withValues: Record<string, string>) => Promise<string[]>;
  stepTimeoutMs: number;
}

export interface ActionResult {
  failed: boolean;
  steps: StepRecord[];
  outputs: Record<string, string>;
}

/** GITHUB_OUTPUT / GITHUB_ENV syntax: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
export function readEnvironmentFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, index + 1);
      if (end === -1) throw new Error(`environment file: ${heredoc[1]}<<${heredoc[2]} is never closed`);
      values[heredoc[1]!] = lines.slice(index + 1, end).join('\n');
      index = end;
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) throw new Error(`environment file: "${line}" is neither name=value nor name<<DELIMITER`);
    values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return values;
}

function runBash(scriptFile: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number; log: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal === 'SIGTERM' ? 143 : 1), log });
    });
  });
}

export async function runComposite(action: CompositeAction, setup: RunnerSetup): Promise<ActionResult> {
  const inputs = { ...inputDefaults(action as unknown as Record<string, unknown>), ...setup.with };
  const stepOutputs: Record<string, Record<string, string>> = {};
  const lookup = (path: string[]): string | undefined => {
    const [context, name, kind, output] = path;
    if (context === 'inputs' && path.length === 2) return inputs[name!];
    if (context === 'steps' && kind === 'outputs' && path.length === 4) return stepOutputs[name!]?.[output!];
    if (context === 'runner' && name === 'temp') return setup.runnerTemp;
    if (context === 'github' && name === 'action_path') return setup.actionPath;
    if (context === 'github' && name === 'workspace') return setup.workspace;
    throw new Error(`the test's runner does not know \`${path.join('.')}\` (tests/action/support/composite-runner.ts)`);
  };
  const evaluate = (map: Record<string, unknown> | undefined): Record<string, string> =>
    Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, substitute(String(value), lookup)]));

  let env: NodeJS.ProcessEnv = { ...setup.env, CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: setup.workspace, RUNNER_TEMP: setup.runnerTemp, GITHUB_ACTION_PATH: setup.actionPath };
  const steps: StepRecord[] = [];
  let failed = false;
  for (const [index, step] of action.runs.steps.entries()) {
    const name = step.name ?? `step ${index + 1}`;
    if (failed) break;
    if (step.uses !== undefined) {
      const added = await setup.uses(step, evaluate(step.with));
      if (added.length > 0) env = { ...env, PATH: [...added, env.PATH].join(delimiter) };
      steps.push({ name, outcome: 'uses', log: '', outputs: {}, summary: '' });
      continue;
    }
    if (step.shell !== 'bash') throw new Error(`${name}: the test's runner runs shell: bash only, not ${String(step.shell)}`);
    const files = Object.fromEntries(['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'].map((key) => [key, join(setup.runnerTemp, '_runner_file_commands', `${key.toLowerCase()}_${randomUUID()}`)]));
    await mkdir(join(setup.runnerTemp, '_runner_file_commands'), { recursive: true });
    for (const file of Object.values(files)) await writeFile(file, '');
    const script = join(setup.runnerTemp, `${randomUUID()}.sh`);
    await writeFile(script, substitute(step.run!, lookup));
    const cwd = step['working-directory'] ? resolve(setup.workspace, substitute(step['working-directory'], lookup)) : setup.workspace;
    const { code, log } = await runBash(script, cwd, { ...env, ...files, ...evaluate(step.env) }, setup.stepTimeoutMs);
    const outputs = readEnvironmentFile(await readFile(files.GITHUB_OUTPUT!, 'utf8'));
    if (step.id !== undefined) stepOutputs[step.id] = outputs;
    env = { ...env, ...readEnvironmentFile(await readFile(files.GITHUB_ENV!, 'utf8')) };
    const paths = (await readFile(files.GITHUB_PATH!, 'utf8')).split('\n').filter((line) => line !== '');
    if (paths.length > 0) env = { ...env, PATH: [...paths.reverse(), env.PATH].join(delimiter) };
    steps.push({ name, outcome: code, log, outputs, summary: await readFile(files.GITHUB_STEP_SUMMARY!, 'utf8') });
    failed = code !== 0;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs ?? {}).map(([id, output]) => [id, substitute(output.value, lookup)]));
  return { failed, steps, outputs };
}
