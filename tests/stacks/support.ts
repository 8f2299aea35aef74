/** Independent implementations on other stacks (fixtures/stacks/): why one cannot run here. */
import { spawnSync } from 'node:child_process';

/** What a probe command printed when it exited non-zero, or why it could not start; undefined when it ran clean. */
export function probeFails(command: string, args: string[]): string | undefined {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${command} cannot be run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
  return probe.status === 0 ? undefined : probe.stdout.trim() || `${command} exited with ${probe.status}`;
}
