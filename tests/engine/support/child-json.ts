/**
 * Runs a compiled engine script in a child process (runConformance drives vitest itself, so it runs
 * outside the test's own vitest) and reads the one JSON line it prints last.
 */
import { spawn } from 'node:child_process';
import { assertBuilt, cleanEnv, ROOT } from '../../cli/support.js';

export function runChildJson<T>(script: string, args: readonly string[] = [], timeoutMs = 150_000): Promise<T> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T);
      } catch {
        reject(new Error(`no result from the child\n${stdout}\n${stderr}`));
      }
    });
  });
}
