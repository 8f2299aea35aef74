/**
 * A real k6 for the k6 lane, the one the user installed: K6_BIN first, then `k6` on PATH, and nothing else
 * (no k6 build can be kept in the repository or beside it). None: the lane skips and says why, loudly. A
 * K6_BIN that does not run is an error, not a skip: whoever set it meant that binary to be tested.
 */
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../cli/support.js';

/** The k6 releases the scripts in load/ are written for and were measured on (docs/load.md). */
export const SUPPORTED_K6 = { oldest: [0, 48, 0], newestMajor: 2, text: 'v0.48 to v2.x' } as const;

export interface K6 {
  path: string;
  /** e.g. "k6 v0.48.0", from `k6 version` (whose first word is the binary's own name). */
  version: string;
  /** Where it came from: K6_BIN or PATH. */
  source: 'K6_BIN' | 'PATH';
}

export type K6Found = { k6: K6; skip?: undefined } | { k6?: undefined; skip: string };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `k6 v1.2.3` is in the range the scripts support. */
export function supportedK6(version: string): boolean {
  const parts = /v(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number);
  if (parts === undefined) return false;
  const [major, minor] = parts as [number, number, number];
  const [oldestMajor, oldestMinor] = SUPPORTED_K6.oldest;
  return major <= SUPPORTED_K6.newestMajor && (major > oldestMajor || minor >= oldestMinor);
}

async function versionOf(path: string): Promise<string> {
  const { stdout } = await promisify(execFile)(path, ['version'], { timeout: 15_000, env: k6Env() });
  const version = /\bv\d+\.\d+\.\d+\S*/.exec(stdout)?.[0];
  if (version === undefined) throw new Error(`${path} version printed no version: ${stdout.slice(0, 200)}`);
  return `k6 ${version}`;
}

export async function findK6(env: NodeJS.ProcessEnv = process.env): Promise<K6Found> {
  const given = env.K6_BIN;
  if (given !== undefined && given !== '') {
    if (!executable(given)) throw new Error(`K6_BIN=${given} is not an executable file`);
    return { k6: { path: given, version: await versionOf(given), source: 'K6_BIN' } };
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'k6');
    if (dir !== '' && executable(candidate)) return { k6: { path: candidate, version: await versionOf(candidate), source: 'PATH' } };
  }
  return { skip: `no k6 installed: K6_BIN is not set and no k6 is on PATH (install one of ${SUPPORTED_K6.text}: https://grafana.com/docs/k6/latest/set-up/install-k6/)` };
}

/**
 * k6's environment: PATH only, a scratch HOME (k6 keeps a config folder there), and no usage report (k6
 * phones home by default; tests talk to 127.0.0.1 only). The scripts get their inputs through -e.
 */
export function k6Env(home?: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: home ?? process.env.HOME ?? '/tmp', K6_NO_USAGE_REPORT: 'true', NO_COLOR: '1' };
}

export interface K6Result {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** One `k6 run` of a script in load/, bounded in time (SIGKILL at the deadline). */
export function runK6(k6: K6, script: string, inputs: Record<string, string | number>, options: { home: string; args?: string[]; timeoutMs?: number }): Promise<K6Result> {
  const env = Object.entries(inputs).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  const args = ['run', '--quiet', '--no-usage-report', ...(options.args ?? []), ...env, join(ROOT, 'load', script)];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(k6.path, args, { cwd: options.home, env: k6Env(options.home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const limit = options.timeoutMs ?? 90_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`k6 run ${script} did not finish in ${limit} ms\n${stdout}\n${stderr.slice(-4000)}`));
    }, limit);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
