/**
 * The GitHub Action's inputs (action.yml passes them as INPUT_* variables) turned into the `run` command
 * line, and the run's exit code turned into the step's outputs. Pure functions: src/action/run.ts does the
 * spawning and the writing.
 */
import { EXIT } from '../errors.js';
import { parseBoolean } from '../values.js';

export interface ActionInputs {
  profile: string;
  reporters: string[];
  strict: boolean;
  /** `run --attest`: the verdict signed keyless through Sigstore with the job's OIDC token (docs/certify.md). */
  attest: boolean;
  out: string;
  extraArgs: string[];
}

function input(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] ?? '').trim();
}

/** The CLI's boolean grammar (true/false, 1/0, yes/no, on/off, any case); empty is the default; anything else names the input. */
function booleanInput(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = input(env, name);
  return value === '' ? fallback : parseBoolean(value, { flag: `input ${name}` });
}

/**
 * Extra arguments: one per line when any line is given (an argument may then hold spaces), otherwise
 * separated by spaces. No shell quoting: the string is never given to a shell.
 */
export function splitArgs(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const lines = trimmed.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  return lines.length > 1 ? lines : trimmed.split(/\s+/);
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  return {
    profile: input(env, 'profile'),
    reporters: input(env, 'reporters').split(/[\s,]+/).filter((name) => name !== ''),
    strict: booleanInput(env, 'strict', false),
    attest: booleanInput(env, 'attest', false),
    out: input(env, 'out') || 'reports',
    extraArgs: splitArgs(input(env, 'args')),
  };
}

/** The `access-conformance` arguments for these inputs. */
export function runArgs(inputs: ActionInputs): string[] {
  return [
    'run',
    ...(inputs.profile === '' ? [] : ['--profile', inputs.profile]),
    ...inputs.reporters.flatMap((name) => ['--reporter', name]),
    ...(inputs.strict ? ['--strict'] : []),
    ...(inputs.attest ? ['--attest'] : []),
    '--out',
    inputs.out,
    ...inputs.extraArgs,
  ];
}

export type ActionVerdict = 'conformant' | 'not-conformant' | 'error' | 'interrupted';

export function verdictOf(exitCode: number): ActionVerdict {
  if (exitCode === EXIT.CONFORMANT) return 'conformant';
  if (exitCode === EXIT.NOT_CONFORMANT) return 'not-conformant';
  if (exitCode === 130 || exitCode === 143) return 'interrupted';
  return 'error';
}

/** Lines for $GITHUB_OUTPUT: `name=value`, values on one line. */
export function outputLines(exitCode: number, reportDir: string): string {
  return `exit-code=${exitCode}\nverdict=${verdictOf(exitCode)}\nreport-dir=${reportDir.replace(/[\r\n]/g, ' ')}\n`;
}

/** A line for $GITHUB_STEP_SUMMARY when no markdown report is appended there (the markdown reporter does it). */
export function summaryLine(exitCode: number, reportDir: string): string {
  return `**access-conformance**: ${verdictOf(exitCode)} (exit ${exitCode}); reports in \`${reportDir.replace(/[`\r\n]/g, ' ')}\`\n`;
}
