/**
 * The sandbox's per-machine cache folder (`$XDG_CACHE_HOME/access-conformance/`, else
 * `~/.cache/access-conformance/`): what every embedded `run`, `serve` and fault run would otherwise make
 * again and that only has to be the machine's own (key-cache.ts: the RS256 signing key;
 * certificate-cache.ts: the JWKS server's TLS certificate and the local CA that signs it).
 *
 * Safe keeping: the folder is made 0700 and each file 0600, written whole under a temporary name and
 * renamed; a file is read only when it is a regular file (not a link), owned by this user, readable by
 * nobody else and of a bounded size. Anything else (another user's file, a loose mode, a read-only or
 * absent home) means the caller makes a fresh value, as without a cache, and a fresh file when one can be
 * written. What a file holds is checked by its reader before it is used.
 */
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Where `fileName` lives in this environment's cache folder, or undefined when there is none. */
export function machineCachePath(fileName: string, env: NodeJS.ProcessEnv = process.env, home: () => string = homedir): string | undefined {
  // The XDG base directory rule: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  let base: string | undefined = xdg !== undefined && isAbsolute(xdg) ? xdg : undefined;
  if (base === undefined) {
    try {
      const dir = home();
      base = dir !== '' && isAbsolute(dir) ? join(dir, '.cache') : undefined;
    } catch {
      base = undefined;
    }
  }
  return base === undefined ? undefined : join(base, 'access-conformance', fileName);
}

/** A file only this user may read, and a regular one of at most `maxBytes`. */
function safelyKept(stats: Stats, maxBytes: number): boolean {
  const ownUser = typeof process.getuid !== 'function' || stats.uid === process.getuid();
  return stats.isFile() && ownUser && (stats.mode & 0o077) === 0 && stats.size <= maxBytes;
}

/** The JSON value kept at `path`, or undefined when there is none that was safely kept (or it is no JSON). */
export async function readCachedJson(path: string, maxBytes: number): Promise<unknown> {
  let handle;
  try {
    // O_NOFOLLOW: a link put in the file's place is not followed (where the platform has the flag).
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!safelyKept(await handle.stat(), maxBytes)) return undefined;
    return JSON.parse(await handle.readFile('utf8')) as unknown;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/** Keeps `value` at `path` (folder 0700, file 0600, written whole then renamed); throws when it cannot. */
export async function writeCachedJson(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(temporary, `${JSON.stringify(value)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
