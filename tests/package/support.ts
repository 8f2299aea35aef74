/** Spawning npm, scripts and installed binaries for the package tests, bounded in time. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** The environment without ACCESS_CONFORMANCE_* (read as flags) and without the job-specific GitHub files. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_') && !name.startsWith('GITHUB_') && !name.startsWith('INPUT_')),
  );
  return { ...env, NO_COLOR: '1', ...extra };
}

export function runProcess(command: string, args: readonly string[], options: SpawnOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

/** Whether the npm registry answers (the install tests skip, saying so, when it does not). */
export async function registryAnswers(): Promise<boolean> {
  const result = await runProcess('npm', ['ping', '--loglevel=error'], { timeoutMs: 30_000 }).catch(() => undefined);
  return result?.code === 0;
}

/**
 * `npm pack` of the checkout at `root` into `destination`; returns the tarball's path. --ignore-scripts:
 * `prepare` would compile again, and `npm test` compiled dist/ already.
 */
async function packPackage(root: string, destination: string): Promise<string> {
  const pack = await runProcess('npm', ['pack', '--ignore-scripts', '--pack-destination', destination, '--loglevel=error'], { cwd: root, timeoutMs: 120_000 });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  return join(destination, pack.stdout.trim().split('\n').at(-1)!);
}

export interface PackedWork {
  /** A scratch folder (removed by `remove`), holding the tarball. */
  work: string;
  /** Whether the registry answered; without it nothing was packed and the install tests skip. */
  online: boolean;
  tarball: string;
  remove: () => Promise<void>;
}

/** A scratch folder and, when the npm registry answers (installing needs it), the package packed into it. */
export async function packInScratch(root: string, prefix: string): Promise<PackedWork> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  const online = await registryAnswers();
  return { work, online, tarball: online ? await packPackage(root, work) : '', remove: () => rm(work, { recursive: true, force: true }) };
}
