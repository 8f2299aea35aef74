/**
 * Reading a profile, and the files it points at, as a hostile path would have it: only a regular file (a
 * FIFO would hang the run forever, /dev/zero would fill the memory, a directory says nothing useful), at
 * most MAX_PROFILE_FILE_BYTES, and within a time limit (a stalled network mount).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { within } from '../stop/within.js';

/** Profiles, keys and CA bundles are kilobytes; anything past this is not one. */
export const MAX_PROFILE_FILE_BYTES = 4 * 1024 * 1024;
/** A local file reads in milliseconds; this bounds a stalled mount. */
export const PROFILE_READ_TIMEOUT_MS = 10_000;

/** Why a file was refused, in words for the message; `code` is the errno when there was one. */
export class FileRefused extends Error {
  constructor(
    readonly why: string,
    readonly code?: string,
  ) {
    super(why);
  }
}

function kindOf(stats: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function megabytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
}

/**
 * The UTF-8 text of a regular file of at most `maxBytes`. Throws FileRefused (not a regular file, too large,
 * too slow) or the errno error of open (ENOENT, EACCES...).
 */
export async function readBoundedFile(path: string, options: { maxBytes?: number; timeoutMs?: number; what?: string } = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_PROFILE_FILE_BYTES;
  const timeoutMs = options.timeoutMs ?? PROFILE_READ_TIMEOUT_MS;
  const what = options.what ?? 'a profile file';
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused on the fstat below.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileRefused(`it is ${kindOf(stats)}, not a regular file`, stats.isDirectory() ? 'EISDIR' : undefined);
    if (stats.size > maxBytes) throw new FileRefused(`it is ${megabytes(stats.size)}, more than the ${megabytes(maxBytes)} ${what} may have`);
    const read = (async () => {
      // Read one byte past the bound: a file that grew after the stat is still refused, never read whole.
      const buffer = Buffer.alloc(Math.min(maxBytes + 1, stats.size + 1));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > maxBytes) throw new FileRefused(`it is more than the ${megabytes(maxBytes)} ${what} may have`);
      return buffer.subarray(0, filled).toString('utf8');
    })();
    return await within(read, timeoutMs, () => {
      throw new FileRefused(`reading it took more than ${timeoutMs / 1000} s`);
    });
  } finally {
    await handle.close().catch(() => {});
  }
}
