/**
 * Waits for the profile the container writes into the mounted folder. Polling (not fs.watch): bind mounts
 * and some filesystems do not deliver change events reliably, and the wait is bounded anyway.
 *
 * A file counts as written once it is non-empty and its size and modification time held still over two
 * polls, so that a writer that does not rename atomically is not read half-way.
 */
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export type ProfileWaitResult =
  | { kind: 'ready'; elapsedMs: number }
  | { kind: 'exited'; detail: string; elapsedMs: number }
  | { kind: 'timeout'; elapsedMs: number };

export interface WaitForProfileOptions {
  path: string;
  timeoutMs: number;
  /** Poll interval of the file; default 100 ms. */
  intervalMs?: number;
  /** How often to ask whether the container still runs; default 500 ms. */
  exitCheckIntervalMs?: number;
  /** Resolves to a description (e.g. "exited with code 3") when the container is gone, undefined while it runs. */
  checkExited: () => Promise<string | undefined>;
}

export async function waitForProfile(options: WaitForProfileOptions): Promise<ProfileWaitResult> {
  const interval = options.intervalMs ?? 100;
  const exitInterval = options.exitCheckIntervalMs ?? 500;
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastSignature: string | undefined;
  let lastExitCheck = 0;
  for (;;) {
    const now = Date.now();
    const signature = await fileSignature(options.path);
    if (signature !== undefined && signature === lastSignature) return { kind: 'ready', elapsedMs: now - started };
    lastSignature = signature;
    // While the file is being confirmed the container is not asked about; the caller checks once more after.
    if (signature === undefined && now - lastExitCheck >= exitInterval) {
      lastExitCheck = now;
      const exited = await options.checkExited();
      if (exited !== undefined) return { kind: 'exited', detail: exited, elapsedMs: Date.now() - started };
    }
    if (Date.now() >= deadline) return { kind: 'timeout', elapsedMs: Date.now() - started };
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
  }
}

async function fileSignature(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size === 0) return undefined;
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return undefined;
  }
}
