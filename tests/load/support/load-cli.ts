/**
 * The built CLI in a child process, as users run it, for the `load` tests: run to the end (`cli`), or
 * started and handled while it runs (`startCli`: read its output so far, scrape it, signal or kill it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { fixtureProfile, startStatusServer, type FixtureServer } from './fixtures.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/access-conformance.js');

export interface Cli {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its output is read; rejects past the timeout (after SIGKILL). */
  done: Promise<Cli>;
}

/** The test's environment without ACCESS_CONFORMANCE_* settings (they would set flags). */
export function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('ACCESS_CONFORMANCE_')) env[key] = value;
  return env;
}

export function startCli(args: string[], onStderr?: (text: string, kill: (signal: NodeJS.Signals) => void) => void, timeoutMs = 30_000): RunningCli {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npx tsc -p .` (npm test does it in pretest)');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    onStderr?.(stderr, (signal) => child.kill(signal));
  });
  const done = new Promise<Cli>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/**
 * SIGKILL for the CLI and every process under it, children first (Linux: /proc). The CLI is a supervisor
 * and the command runs in a child of its own process group (src/stop/supervisor.ts), which ends gracefully
 * when only the supervisor dies; an OOM killer or a lost runner gives no process that chance. Returns every
 * process ID it killed.
 */
export function killTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    // gone already
  }
  const killed = children.flatMap((child) => killTree(child));
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
  return [...killed, pid];
}

/** Runs the CLI to its end; `onStderr` may act on its output (e.g. send SIGINT once progress shows). */
export function cli(args: string[], onStderr?: (text: string, kill: (signal: NodeJS.Signals) => void) => void, timeoutMs = 30_000): Promise<Cli> {
  return startCli(args, onStderr, timeoutMs).done;
}

/** A profile file for a fixture server, its HMAC secret read from FIXTURE_HMAC_SECRET (which this sets). */
export async function writeFixtureProfile(path: string, baseUrl: string): Promise<void> {
  const p = fixtureProfile(baseUrl);
  await writeFile(
    path,
    JSON.stringify({
      version: 1,
      name: p.name,
      baseUrl: p.baseUrl,
      credentials: { primary: p.credentials.primary },
      webhooks: { hmac: { listenerId: 'wh_fixture', secret: { env: 'FIXTURE_HMAC_SECRET' } } },
    }),
  );
  process.env.FIXTURE_HMAC_SECRET = 'fixture-hmac-secret';
}

/**
 * For a test file: a scratch folder and a fixture server answering 200 with its profile file, made before
 * the file's tests and removed after them. Read the fields inside tests (they are set in beforeAll).
 */
export function fixtureTarget(prefix: string): { work: string; profilePath: string } {
  const target = { work: '', profilePath: '' };
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    target.work = await mkdtemp(join(tmpdir(), prefix));
    server = await startStatusServer(200);
    target.profilePath = join(target.work, 'fixture.target.json');
    await writeFixtureProfile(target.profilePath, server.baseUrl);
  });
  afterAll(async () => {
    delete process.env.FIXTURE_HMAC_SECRET;
    await server?.close();
    if (target.work) await rm(target.work, { recursive: true, force: true });
  });
  return target;
}
