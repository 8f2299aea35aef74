/**
 * The one module that imports classic-level (LevelDB): opens the state directory's database and turns
 * LevelDB's failures into HarnessErrors a user can act on. Everything else in the room sees {@link StateDb}.
 *
 * Why LevelDB through classic-level: its N-API prebuilds are inside the npm tarball (no download and no
 * install script needed at install time; the same binary loads on Node 20, 22 and 24); a synced write is
 * one append to its log and one fdatasync, and concurrent writes are grouped into one; its LOCK file makes
 * a second process on the same directory fail to open (the kernel drops that lock when a process dies, so a
 * serve killed with SIGKILL leaves no stale lock); Bloom filters (10 bits a key) make a lookup of an absent
 * key cheap, and its block cache is bounded (8 MB), so memory does not grow with the records.
 */
import { ClassicLevel } from 'classic-level';
import type { HarnessError } from '../errors.js';
import { corruptError, fsCause, lockedError, stateDirError } from './state-errors.js';

export type StateDb = ClassicLevel<Buffer, Buffer>;
export type StateOperation = { type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer };

/** Opens (creating when absent) the database under `dir`, an existing directory the proof (proof.ts) has checked. */
export async function openStateDb(dir: string): Promise<StateDb> {
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  try {
    await db.open({ createIfMissing: true });
  } catch (error) {
    throw levelError(dir, error);
  }
  return db;
}

/**
 * LevelDB's RepairDB: rebuilds the MANIFEST from the tables and logs in `dir` (repair.ts first moves the
 * damaged ones aside and cuts each log at its first bad byte, since RepairDB reads logs without checking
 * their checksums).
 */
export async function repairStateDb(dir: string): Promise<void> {
  try {
    await ClassicLevel.repair(dir);
  } catch (error) {
    throw levelError(dir, error);
  }
}

/** The text of a LevelDB failure (classic-level wraps LevelDB's status in `cause`). */
export function levelErrorText(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause;
  return cause?.message ?? (error as Error)?.message ?? String(error);
}

/** A LevelDB failure at open as the state-dir error that names its cause. */
export function levelError(dir: string, error: unknown): HarnessError {
  const detail = levelErrorText(error);
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as NodeJS.ErrnoException).code;
  if (code === 'LEVEL_LOCKED' || (/lock/i.test(detail) && /(temporarily unavailable|already held)/i.test(detail))) return lockedError(dir, error);
  const cause = fsCause(undefined, detail);
  if (cause !== undefined) return stateDirError(dir, cause, detail, error);
  if (!/corrupt/i.test(detail)) return stateDirError(dir, 'unopenable', detail, error);
  // LevelDB names the file in its Corruption status when it knows it.
  const file = /([0-9]+\.(?:log|ldb|sst)|MANIFEST-[0-9]+|CURRENT)/.exec(detail)?.[1] ?? 'the database';
  return corruptError(dir, file, `LevelDB refused to open it: ${detail}`, error);
}

/** Writes `operations` as one batch; `sync` waits for the fdatasync of LevelDB's log. */
export function writeBatch(db: StateDb, operations: StateOperation[], sync: boolean): Promise<void> {
  // The chained form: the array form clones every operation with its options (a third of the CPU of a claim).
  const batch = db.batch();
  for (const operation of operations) {
    if (operation.type === 'put') batch.put(operation.key, operation.value);
    else batch.del(operation.key);
  }
  return batch.write({ sync });
}

/** The values of keys in [gte, lt), in key order, `limit` at most. */
export async function readRange(db: StateDb, gte: Buffer, lt: Buffer, limit: number): Promise<Array<[Buffer, Buffer]>> {
  const iterator = db.iterator({ gte, lt, limit });
  try {
    return await iterator.all();
  } finally {
    await iterator.close().catch(() => undefined);
  }
}

/** How many keys lie in [gte, lt) (read in pages, keys only). */
export async function countRange(db: StateDb, gte: Buffer, lt: Buffer): Promise<number> {
  const iterator = db.keys({ gte, lt });
  let count = 0;
  try {
    for (;;) {
      const page = await iterator.nextv(4096);
      if (page.length === 0) return count;
      count += page.length;
    }
  } finally {
    await iterator.close().catch(() => undefined);
  }
}
