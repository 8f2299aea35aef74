/**
 * `access-conformance serve` (the built CLI) in a child process, started as a script would: it waits for
 * the ready line (the one stdout line that starts with `{`, docs/sandbox.md) and reads where things are
 * from it. Every wait is bounded; close() ends the child it started, by its own handle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxProfile } from '../../reference/support/wire.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'access-conformance.js');

export interface ReadyLine {
  ready: true;
  baseUrl: string;
  inspector: string;
  profile: string;
}

export interface ServeChild {
  ready: ReadyLine;
  profile: SandboxProfile & { hooks: { baseUrl: string; token: string } };
  dir: string;
  stdout(): string;
  close(): Promise<void>;
}

export function requireDist(): void {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build:all` first (npm test does)');
}

/** The child's exit code and what it printed, for a serve that must refuse to start. */
export async function serveRefused(args: readonly string[], timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireDist();
  const dir = mkdtempSync(join(tmpdir(), 'ac-serve-refused-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--out', dir, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exit) => resolve(exit)));
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr };
}

export async function startServeChild(args: readonly string[] = [], startMs = 60_000): Promise<ServeChild> {
  requireDist();
  const dir = mkdtempSync(join(tmpdir(), 'ac-serve-inspector-'));
  const profilePath = join(dir, 'sandbox.target.json');
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--hooks', '--profile-out', profilePath, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + startMs;
  let line: string | undefined;
  while ((line = stdout.split('\n').slice(0, -1).find((text) => text.startsWith('{'))) === undefined) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await close();
      throw new Error(`serve did not print its ready line:\n${stdout}\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ready = JSON.parse(line) as ReadyLine;
  const profile = JSON.parse(readFileSync(ready.profile, 'utf8')) as ServeChild['profile'];
  return { ready, profile, dir, stdout: () => stdout, close };
}
