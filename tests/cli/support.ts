/** Spawns the built CLI (`npm test` builds it first) as a child process, bounded in time. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function assertBuilt(): void {
  if (!existsSync(new URL('../../dist/src/cli/main.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npx tsc -p .` (npm test does it in pretest)');
  }
}

/**
 * The environment of a child: ours without ACCESS_CONFORMANCE_* (a developer's settings must not leak in),
 * and without npm_command: the npx or npm that started vitest did not start the child, which prints its
 * commands as started from a shell (src/cli/launcher.ts).
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ACCESS_CONFORMANCE_') && key !== 'GITHUB_STEP_SUMMARY' && key !== 'npm_command') env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export function runCli(args: string[], options: { env?: Record<string, string | undefined>; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  assertBuilt();
  return runProcess(process.execPath, [BIN, ...args], { ...options, label: `access-conformance ${args.join(' ')}` });
}

/** Runs `command args` in a clean environment (cleanEnv), killed past `timeoutMs`, with its output. */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string | undefined>; timeoutMs?: number; cwd?: string; label?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.label ?? command} did not finish in ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface StartedProcess {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` and resolves once `profilePath` exists and the process printed a line (a target
 * writes its profile, then says where it listens); stop() sends SIGTERM, then SIGKILL after 10 s, and waits.
 */
export async function startWithProfile(
  command: string,
  args: string[],
  profilePath: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; label?: string } = {},
): Promise<StartedProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const label = options.label ?? command;
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + timeoutMs;
  // Polling a file is bounded by the deadline.
  while (!existsSync(profilePath) || !/\n/.test(output)) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${label} wrote no profile in ${timeoutMs} ms: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, stop };
}

/** Starts `serve` and resolves once its profile file exists; stop() sends SIGTERM and waits. */
export async function startServe(args: string[], profilePath: string, timeoutMs = 60_000): Promise<StartedProcess> {
  assertBuilt();
  return startWithProfile(process.execPath, [BIN, 'serve', ...args], profilePath, { cwd: ROOT, env: cleanEnv(), timeoutMs, label: 'serve' });
}
