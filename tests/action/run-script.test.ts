// The GitHub Action's script (action.yml's last step), run as the runner runs it: INPUT_* variables,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY pointing at files, the workspace as the working directory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, readInputs, runArgs, splitArgs, verdictOf } from '../../src/action/inputs.js';
import { skipUnless } from '../support/capabilities.js';

const SCRIPT = resolve('dist/src/action/run.js');
const STEP_BOUND_MS = 150_000;

describe('action inputs', () => {
  it('become the run command line', () => {
    const inputs = readInputs({
      INPUT_PROFILE: 'target.json',
      INPUT_REPORTERS: 'json, junit markdown',
      INPUT_STRICT: 'True',
      INPUT_OUT: 'build/conformance',
      INPUT_ARGS: '--only WH-HMAC-* --seed s1',
    });
    expect(runArgs(inputs)).toEqual([
      'run', '--profile', 'target.json', '--reporter', 'json', '--reporter', 'junit', '--reporter', 'markdown',
      '--strict', '--out', 'build/conformance', '--only', 'WH-HMAC-*', '--seed', 's1',
    ]);
  });

  it('turn attest on with the same boolean grammar: --attest, signed keyless in the job', () => {
    expect(runArgs(readInputs({ INPUT_ATTEST: 'yes', INPUT_PROFILE: 't.json' }))).toEqual(['run', '--profile', 't.json', '--attest', '--out', 'reports']);
    expect(readInputs({ INPUT_ATTEST: '' }).attest).toBe(false);
    expect(() => readInputs({ INPUT_ATTEST: 'sure' })).toThrow('input attest takes true/false');
  });

  it('default to the embedded reference, no reporter, not strict, reports/', () => {
    expect(runArgs(readInputs({}))).toEqual(['run', '--out', 'reports']);
  });

  it('take extra arguments one per line when there are lines, so one may hold spaces', () => {
    expect(splitArgs('--image-env\nNAME=a b\n')).toEqual(['--image-env', 'NAME=a b']);
    expect(splitArgs('  --only  X ')).toEqual(['--only', 'X']);
    expect(splitArgs('')).toEqual([]);
  });

  it('read strict with the boolean grammar of the CLI and refuse anything else, naming the input', () => {
    for (const [value, strict] of [['yes', true], ['ON', true], ['1', true], ['no', false], ['Off', false], ['0', false], ['', false]] as const) {
      expect(readInputs({ INPUT_STRICT: value }).strict).toBe(strict);
    }
    expect(() => readInputs({ INPUT_STRICT: 'maybe' })).toThrow('input strict takes true/false, 1/0, yes/no or on/off; got "maybe"');
  });

  it('exit codes map to verdicts', () => {
    expect([0, 1, 2, 130, 143].map(verdictOf)).toEqual(['conformant', 'not-conformant', 'error', 'interrupted', 'interrupted']);
    expect(outputLines(1, '/w/reports')).toBe('exit-code=1\nverdict=not-conformant\nreport-dir=/w/reports\n');
  });
});

interface StepResult {
  code: number | null;
  stdout: string;
  output: string;
  summary: string;
}

describe('the action script, as the runner runs it', () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'ac-action-'));
  });
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  async function step(name: string, inputs: Record<string, string>): Promise<StepResult> {
    const dir = join(workspace, name);
    const outputFile = join(workspace, `${name}.output`);
    const summaryFile = join(workspace, `${name}.summary`);
    await writeFile(outputFile, '');
    await writeFile(summaryFile, '');
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ACCESS_CONFORMANCE_') && !key.startsWith('INPUT_'))),
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      ...inputs,
    };
    await mkdir(dir, { recursive: true });
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const child = spawn(process.execPath, [SCRIPT], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      // Each step is a run of one check (2 to 7 s here, idle or loaded), but one clean-clone rehearsal saw a
      // step print nothing for 60 s beside the full lane's k6 and container load (not seen in 12 tries
      // since): the bound is generous so that only a real hang fails, and SIGTERM makes the run say where it was.
      const timer = setTimeout(() => child.kill('SIGTERM'), STEP_BOUND_MS);
      child.on('close', (exit) => {
        clearTimeout(timer);
        done({ code: exit, stdout: out });
      });
    });
    return { code, stdout, output: await readFile(outputFile, 'utf8'), summary: await readFile(summaryFile, 'utf8') };
  }

  it('a conformant selection: exit 0, outputs, the verdict line in the job summary, the report in out', async (ctx) => {
    skipUnless(ctx, 'dist', existsSync(SCRIPT), 'dist/ is missing: run `npm run build` first');
    const result = await step('pass', { INPUT_REPORTERS: 'json', INPUT_OUT: 'conformance', INPUT_ARGS: '--only WH-HMAC-01', INPUT_STRICT: 'false' });
    const reportDir = join(workspace, 'pass', 'conformance');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('access-conformance run --reporter json --out conformance --only WH-HMAC-01');
    expect(result.output).toBe(`exit-code=0\nverdict=conformant\nreport-dir=${reportDir}\n`);
    expect(result.summary).toBe(`**access-conformance**: conformant (exit 0); reports in \`${reportDir}\`\n`);
    const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as { totals: { passed: number; failed: number } };
    expect(report.totals).toMatchObject({ passed: 1, failed: 0 });
  }, STEP_BOUND_MS + 10_000);

  it('a failing target: exit 1, verdict not-conformant; the markdown reporter writes the job summary', async (ctx) => {
    skipUnless(ctx, 'dist', existsSync(SCRIPT), 'dist/ is missing: run `npm run build` first');
    const result = await step('fail', { INPUT_REPORTERS: 'markdown', INPUT_ARGS: '--only\nWH-HMAC-01\n--fault\nhmac-hex-digest\n' });
    expect(result.code, result.stdout).toBe(1);
    expect(result.output).toBe(`exit-code=1\nverdict=not-conformant\nreport-dir=${join(workspace, 'fail', 'reports')}\n`);
    expect(result.summary).toContain('WH-HMAC-01');
    expect(result.summary).not.toContain('**access-conformance**:');
  }, STEP_BOUND_MS + 10_000);

  it('a bad input: exit 2, an ::error annotation, verdict error, no run', async (ctx) => {
    skipUnless(ctx, 'dist', existsSync(SCRIPT), 'dist/ is missing: run `npm run build` first');
    const result = await step('bad', { INPUT_STRICT: 'maybe' });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('::error title=access-conformance action::error[USAGE] at input strict: input strict takes true/false, 1/0, yes/no or on/off; got \"maybe\"');
    expect(result.output).toContain('exit-code=2\nverdict=error\n');
    expect(existsSync(join(workspace, 'bad', 'reports'))).toBe(false);
  }, 30_000);
});
