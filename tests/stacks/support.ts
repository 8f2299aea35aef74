/**
 * Independent implementations on other stacks (fixtures/stacks/): start one as a child process that writes
 * its target profile, wait for the profile (bounded), stop it by its own pid.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface StackProcess {
  output: () => string;
  stop(): Promise<void>;
}

/** What a probe command printed on stdout when it exited non-zero, or why it could not start; undefined when it ran clean. */
export function probeFails(command: string, args: string[]): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${command} cannot be run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
  return probe.status === 0 ? undefined : probe.stdout.trim() || `${command} exited with ${probe.status}`;
}

/** Starts `command args`, resolves once `profilePath` exists and the process printed a line. */
export async function startStack(command: string, args: string[], profilePath: string, timeoutMs = 60_000): Promise<StackProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(profilePath) || !output.includes('\n')) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} wrote no profile in ${timeoutMs} ms: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { output: () => output, stop };
}
