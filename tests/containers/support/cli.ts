/** Spawning the built CLI for the container tests, bounded in time. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const CLI = resolve('bin/access-conformance.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

export interface RunCliOptions {
  /** Called once with the child's pid, e.g. to interrupt it. */
  onStart?: (pid: number) => void;
  /**
   * Start it in a process group of its own and send the timeout's SIGTERM to the whole group: a shell
   * script runs its cleanup only once its current child (a docker build, a run) has ended.
   */
  processGroup?: boolean;
}

export function runCli(args: string[], timeoutMs: number, options: RunCliOptions = {}): Promise<CliResult> {
  if (!existsSync(resolve('dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  return runProcess(process.execPath, [CLI, ...args], timeoutMs, options);
}

/** Any command, with the environment the CLI gets (a script that runs the CLI must not see our flags). */
export function runProcess(command: string, args: string[], timeoutMs: number, options: RunCliOptions = {}): Promise<CliResult> {
  // The CLI reads every ACCESS_CONFORMANCE_* variable as a flag: start from an environment without them.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_')));
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.processGroup === true });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // SIGTERM first, so the CLI's own cleanup removes its container.
    const timer = setTimeout(() => {
      if (options.processGroup === true && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

export interface ReportTotals {
  passed: number;
  failed: number;
  skipped: number;
  errored: number;
}

export async function readReport(outDir: string): Promise<{ totals: ReportTotals; target: { description?: string } }> {
  const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as {
    totals: ReportTotals;
    target: { description?: string };
  };
  return report;
}
