/**
 * Writing a file the user named (a report, `load --stream`) so that no path can crash or hang the run: every
 * failure is an OUTPUT_UNWRITABLE HarnessError naming the flag and the cause in words (a full disk, a
 * folder where a file was expected, no permission, a FIFO nobody reads), and every wait is bounded.
 *
 * - Folders are made one level at a time: Node's `mkdir({ recursive: true })` loops forever when the
 *   kernel keeps answering ENOENT for a parent it will not create (a path under /proc: 99 % CPU, no error).
 * - Files are opened with O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of blocking a
 *   thread of the pool, and so the process, for ever; on a regular file the flag changes nothing.
 * - An asynchronous write is raced against a deadline, so a file system that stops answering (a hung
 *   network mount) costs the run that long, not its end.
 */
import { constants, mkdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, parse, resolve, sep } from 'node:path';
import { HarnessError } from './errors.js';
import { within } from './stop/within.js';

/** How long one output file may take to write before the run gives up on it. */
export const OUTPUT_WRITE_MS = 30_000;

const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted there',
  EROFS: 'the file system is read-only',
  ENXIO: 'it is a FIFO (or a device) with no reader',
  EAGAIN: 'its reader is not reading (the pipe stayed full)',
  ENOENT: 'a folder of its path cannot be created there',
  ETIMEDOUT: `the write did not finish within ${OUTPUT_WRITE_MS / 1000} s (a slow or hung file system)`,
  EFBIG: 'the file grew past the size the file system allows',
  EIO: 'the disk reported an I/O error',
};

/** What went wrong, in words: "the disk is full (ENOSPC)". An error {@link outputError} made is described by its cause. */
export function describeOutputFailure(error: unknown): string {
  const errno = error instanceof HarnessError && error.code === 'OUTPUT_UNWRITABLE' ? error.cause : error;
  const code = (errno as NodeJS.ErrnoException)?.code;
  if (code !== undefined && CAUSES[code] !== undefined) return `${CAUSES[code]} (${code})`;
  return (errno as Error)?.message ?? String(errno);
}

/** A failed write of `path` (given by `flag`) as the HarnessError that names both and the cause. */
export function outputError(flag: string, path: string, error: unknown): HarnessError {
  return new HarnessError('OUTPUT_UNWRITABLE', `${flag} ${path}: cannot write it: ${describeOutputFailure(error)}`, {
    field: flag,
    hint: 'Name a file in a folder this user can write, on a disk with room (the other outputs of the run are still written).',
    cause: error,
  });
}

/**
 * Makes `dir` and its missing parents one level at a time, with `mode`; throws the file system's own error
 * (an ENOTDIR one when a part of the path is a file). Node's `mkdir({ recursive: true })` instead loops
 * for ever where the kernel answers ENOENT for a folder it will not create (under /proc).
 */
export function mkdirLevels(dir: string, mode = 0o777): void {
  const full = resolve(dir);
  const { root } = parse(full);
  let at = root;
  for (const part of full.slice(root.length).split(sep).filter(Boolean)) {
    at = at === root ? `${root}${part}` : `${at}${sep}${part}`;
    let isDir: boolean | undefined;
    try {
      isDir = statSync(at).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (isDir === false) throw Object.assign(new Error(`${at} is not a directory`), { code: 'ENOTDIR' });
    if (isDir === true) continue;
    try {
      mkdirSync(at, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** {@link mkdirLevels} for an output: a failure is {@link outputError} naming `flag`. */
export function makeDirs(dir: string, flag: string): void {
  try {
    mkdirLevels(dir);
  } catch (error) {
    throw outputError(flag, dir, error);
  }
}

/** Flags for an output opened without ever blocking on a FIFO; `append` for a stream. */
export function outputOpenFlags(append: boolean): number {
  return constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | (append ? constants.O_APPEND : constants.O_TRUNC);
}

/**
 * Writes `text` to `path` (its folders made first), within {@link OUTPUT_WRITE_MS}; every failure an
 * OUTPUT_UNWRITABLE naming `flag`.
 */
export async function writeOutputFile(path: string, text: string | Buffer, flag: string, timeoutMs = OUTPUT_WRITE_MS): Promise<void> {
  makeDirs(dirname(resolve(path)), flag);
  // `late` is aborted when the deadline wins, so the write stops waiting for room and closes its file:
  // without it a FIFO whose reader stopped would keep it retrying (and the process alive) after the error.
  const write = async (late: AbortSignal): Promise<void> => {
    const handle = await open(path, outputOpenFlags(false), 0o666);
    try {
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      let done = 0;
      while (done < bytes.length) {
        try {
          done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
        } catch (error) {
          // A FIFO whose reader is slower than the run: wait for room, within the deadline.
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || late.aborted) throw error;
          await new Promise((resolveWait) => setTimeout(resolveWait, 20));
        }
      }
    } finally {
      await handle.close();
    }
  };
  try {
    await within(write, timeoutMs, () => {
      throw Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' });
    }, { hold: false });
  } catch (error) {
    throw outputError(flag, path, error);
  }
}
