/**
 * `serve --state-repair`: keeps what can be proved of a damaged state directory. Each damaged file goes
 * aside into DIR/damaged-<time>/ (never deleted: a user may want it), a damaged log is cut at its first bad
 * byte (the records before it have good checksums; LevelDB's RepairDB would read past a bad one, since it
 * reads logs without checking them), then LevelDB's RepairDB rebuilds the MANIFEST from what is left.
 * state-dir.ts then counts the records kept, resets the counters and the seal, and says how many went.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { repairStateDb } from './level.js';
import type { FileCheck } from './proof.js';

/** Moves or cuts the damaged files of `check`, runs RepairDB when a LevelDB file was touched; returns what it did, a line each. */
export async function repairFiles(dir: string, check: FileCheck): Promise<string[]> {
  const done: string[] = [];
  const files = check.damage.filter((damage) => damage.kind !== 'seal');
  if (files.length === 0) return done;
  const aside = join(dir, `damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(aside, { recursive: true, mode: 0o700 });
  for (const damage of files) {
    const path = join(dir, damage.file);
    if (!existsSync(path)) continue;
    if (damage.kind === 'log' && damage.offset !== undefined) {
      copyFileSync(path, join(aside, damage.file));
      truncateSync(path, damage.offset);
      done.push(`${damage.file}: cut at byte ${damage.offset} (${damage.found}); the whole file copied to ${aside}`);
    } else {
      renameSync(path, join(aside, damage.file));
      done.push(`${damage.file}: moved to ${aside} (${damage.found})`);
    }
  }
  await repairStateDb(dir);
  done.push('LevelDB rebuilt its MANIFEST from the tables and logs left (RepairDB)');
  return done;
}
