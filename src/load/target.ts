/**
 * Where the load goes: the profile's target, or (no profile) the embedded reference, started for the run.
 * From the compiled package the reference runs in a child process on its own core; from the TypeScript
 * sources (tests) there is no compiled child file, and it runs in-process instead.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.js';
import { loadProfile } from '../profile/index.js';
import type { ResolvedProfile } from '../profile/types.js';
import { startSandbox } from '../tenant/index.js';
import { stopMs } from '../stop/timings.js';
import { within } from '../stop/within.js';

export interface LoadTarget {
  profile: ResolvedProfile;
  embedded: boolean;
  /** `profile`, or where the embedded reference runs. */
  where: 'profile' | 'child-process' | 'in-process';
  close(): Promise<void>;
}

export interface OpenTargetOptions {
  profilePath?: string;
  seed?: string;
  /** Force the embedded reference into this process (benchmarks that want it elsewhere start it themselves). */
  inProcess?: boolean;
}

export async function openTarget(options: OpenTargetOptions): Promise<LoadTarget> {
  if (options.profilePath !== undefined) {
    const profile = await loadProfile(options.profilePath);
    return { profile, embedded: false, where: 'profile', close: async () => {} };
  }
  const childUrl = new URL('./embedded-child.js', import.meta.url);
  if (options.inProcess || !existsSync(fileURLToPath(childUrl))) {
    const sandbox = await startSandbox({ seed: options.seed, hooks: false });
    try {
      const profile = await loadProfile(sandbox.profilePath);
      return { profile, embedded: true, where: 'in-process', close: () => sandbox.close() };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }
  return startChild(fileURLToPath(childUrl), options.seed);
}

interface ChildMessage {
  type: 'ready' | 'error';
  profilePath?: string;
  message?: string;
}

async function startChild(path: string, seed: string | undefined): Promise<LoadTarget> {
  const child: ChildProcess = fork(path, [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...(seed ? { ACCESS_CONFORMANCE_LOAD_SEED: seed } : {}) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const message = await new Promise<ChildMessage>((resolve, reject) => {
    const bound = stopMs('loadTargetStart');
    const timer = setTimeout(() => reject(new HarnessError('INTERNAL', `the embedded reference did not start within ${bound / 1000} s`)), bound);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as ChildMessage);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new HarnessError('INTERNAL', `the embedded reference exited (code ${code}) before it was ready`));
    });
  });
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send('close');
    // Past the bound the child is killed, and its exit still awaited.
    const late = await within(exited, stopMs('loadTargetClose'), () => {
      child.kill('SIGKILL');
      return exited;
    });
    await late;
  };
  if (message.type !== 'ready' || !message.profilePath) {
    await close();
    throw new HarnessError('INTERNAL', `the embedded reference failed to start: ${message.message ?? 'no profile'}`);
  }
  try {
    const profile = await loadProfile(message.profilePath);
    return { profile, embedded: true, where: 'child-process', close };
  } catch (error) {
    await close();
    throw error;
  }
}
