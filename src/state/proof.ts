/**
 * The proof that a state directory is whole, taken before LevelDB opens it (LevelDB's recovery would
 * replay a damaged log silently, turn it into a table and delete the evidence):
 *
 * - CURRENT names a MANIFEST that exists and whose every record's checksum holds;
 * - every table of the MANIFEST's current version exists with the size the MANIFEST gives, and every block
 *   of it (data, filter, index) matches its CRC, the blocks tiling the file;
 * - every log LevelDB will replay reads to its end with every checksum holding, its batches' sequence
 *   numbers following one another with no gap. A log whose last record is torn (cut by a crash or a full
 *   disk, with nothing readable after it) is allowed here, and judged after the open by the seal;
 * - the seal (seal.ts) is there and reads.
 *
 * After LevelDB opened it, {@link checkAgainstSeal}: the database must hold the last batch acknowledged.
 * That is what catches a log cut at a record boundary, which reads like a clean end.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { checkTable, parseManifest, parseWriteBatch, readLog, type ManifestView } from './leveldb-files.js';
import { readSeal, SEAL_FILE, type Seal } from './seal.js';

export interface Damage {
  /** The file's name inside DIR. */
  file: string;
  found: string;
  kind: 'current' | 'manifest' | 'table' | 'log' | 'seal';
  /** A log: the offset of its first bad byte (what precedes it is proved). */
  offset?: number;
}

export interface FileCheck {
  /** No database yet (a new DIR). */
  fresh: boolean;
  /** The live tables proved whole, by number (for {@link recordVerifiedTables}). */
  verified: Map<number, VerifiedTable>;
  seal: Seal | undefined;
  damage: Damage[];
  /** The newest log ends in a torn record: allowed if the seal shows it was never acknowledged. */
  tornTail?: { file: string; offset: number; bytes: number; what: string };
}

const LEVELDB_FILE = /^(?:CURRENT|MANIFEST-\d+|\d+\.(?:log|ldb|sst))$/;

export function checkStateFiles(dir: string): FileCheck {
  const names = readdirSync(dir);
  const sealRead = readSeal(dir);
  const seal = typeof sealRead === 'string' ? undefined : sealRead;
  const damage: Damage[] = [];
  if (typeof sealRead === 'string') damage.push({ file: SEAL_FILE, kind: 'seal', found: sealRead });
  if (!names.some((name) => LEVELDB_FILE.test(name))) {
    // A seal of batch 0 and no database: a first start stopped between the two; nothing was acknowledged.
    if (seal !== undefined && seal.batch > 0) damage.push({ file: 'CURRENT', kind: 'current', found: `missing, while ${SEAL_FILE} names batch ${seal.batch} acknowledged: the database files were removed` });
    return { fresh: damage.length === 0, seal, damage, verified: new Map() };
  }
  if (sealRead === undefined) {
    damage.push({ file: SEAL_FILE, kind: 'seal', found: 'missing: nothing proves the log was not cut (the file was deleted, or the directory was kept by a version before 2026-11-27)' });
  }
  const manifest = checkManifest(dir, names, damage);
  const verified = new Map<number, VerifiedTable>();
  const tornTail = manifest === undefined ? undefined : checkTablesAndLogs(dir, names, manifest, damage, verified);
  return { fresh: false, seal, damage, verified, ...(tornTail === undefined ? {} : { tornTail }) };
}

function checkManifest(dir: string, names: string[], damage: Damage[]): ManifestView | undefined {
  if (!names.includes('CURRENT')) {
    damage.push({ file: 'CURRENT', kind: 'current', found: 'missing, while LevelDB files are here (it names the database\'s MANIFEST)' });
    return undefined;
  }
  const current = readFileSync(join(dir, 'CURRENT'));
  const named = /^(MANIFEST-\d+)\n$/.exec(current.toString('latin1'));
  if (named === null) {
    damage.push({ file: 'CURRENT', kind: 'current', found: `does not name a MANIFEST (${current.length} bytes of something else)` });
    return undefined;
  }
  const file = named[1]!;
  if (!names.includes(file)) {
    damage.push({ file: 'CURRENT', kind: 'current', found: `names ${file}, which is missing` });
    return undefined;
  }
  const read = readLog(readFileSync(join(dir, file)));
  // LevelDB ignores a MANIFEST's torn last record (an edit a crash cut short, never applied); damage with
  // readable records after it, or nothing readable at all, it refuses, and so does this.
  if (read.damage?.followed || read.records.length === 0) {
    const where = read.damage === undefined ? '' : `${read.damage.what} at byte ${read.damage.offset}`;
    damage.push({ file, kind: 'manifest', found: read.records.length === 0 ? `holds no readable record${where ? ` (${where})` : ''}` : where });
    return undefined;
  }
  try {
    return parseManifest(read.records);
  } catch (error) {
    damage.push({ file, kind: 'manifest', found: (error as Error).message });
    return undefined;
  }
}

function checkTablesAndLogs(dir: string, names: string[], manifest: ManifestView, damage: Damage[], verified: Map<number, VerifiedTable>): FileCheck['tornTail'] {
  const known = readVerifiedTables(dir);
  for (const [number, size] of manifest.tables) {
    const stem = String(number).padStart(6, '0');
    const file = names.find((name) => name === `${stem}.ldb` || name === `${stem}.sst`);
    if (file === undefined) {
      damage.push({ file: `${stem}.ldb`, kind: 'table', found: 'missing (the MANIFEST lists it)' });
      continue;
    }
    const actual = statSync(join(dir, file)).size;
    if (actual !== size) {
      damage.push({ file, kind: 'table', found: `${actual} bytes where the MANIFEST says ${size} (${actual < size ? 'cut' : 'grown'})` });
      continue;
    }
    const bytes = readInto(join(dir, file), actual);
    // A table proved before and unchanged since (the same whole-file CRC-32, computed natively) is not
    // walked block by block again; any other is, and a bad block is named.
    const crc = wholeFileCrc(bytes);
    const before = known.get(number);
    if (crc !== undefined && before !== undefined && before.size === actual && before.crc === crc) {
      verified.set(number, before);
      continue;
    }
    const problem = checkTable(bytes);
    if (problem !== undefined) damage.push({ file, kind: 'table', found: problem });
    else if (crc !== undefined) verified.set(number, { size: actual, crc });
  }
  const logs = names
    .map((name) => /^(\d+)\.log$/.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ file: match[0], number: Number(match[1]) }))
    .filter(({ number }) => number >= manifest.logNumber || number === manifest.prevLogNumber)
    .sort((a, b) => a.number - b.number);
  const named = `${String(manifest.logNumber).padStart(6, '0')}.log`;
  // LevelDB creates a log before the MANIFEST names it, and deletes one only after a newer one is named.
  if (manifest.logNumber > 0 && !names.includes(named)) damage.push({ file: named, kind: 'log', found: 'missing (the MANIFEST names it as the log to replay): the records written since the last table are gone' });
  let next: number | undefined;
  let tornTail: FileCheck['tornTail'];
  logs.forEach(({ file }, index) => {
    const read = readLog(readFileSync(join(dir, file)));
    for (const record of read.records) {
      try {
        const batch = parseWriteBatch(record.data);
        if (next !== undefined && batch.sequence !== next) {
          damage.push({ file, kind: 'log', offset: record.offset, found: `a gap in the log's sequence numbers at byte ${record.offset} (${batch.sequence} where ${next} was next): records are missing` });
          return;
        }
        next = batch.sequence + batch.count;
      } catch (error) {
        damage.push({ file, kind: 'log', offset: record.offset, found: `an unreadable write batch at byte ${record.offset} (${(error as Error).message})` });
        return;
      }
    }
    if (read.damage === undefined) return;
    const { offset, what, followed, bytes } = read.damage;
    if (followed || index < logs.length - 1) {
      damage.push({ file, kind: 'log', offset, found: `${what} at byte ${offset}, with ${followed ? 'intact records after it' : 'a newer log after it'} (LevelDB would skip it silently)` });
    } else tornTail = { file, offset, bytes, what };
  });
  return tornTail;
}

/**
 * The tables proved whole, kept in DIR/VERIFIED-TABLES ("number size crc32" a line): a table LevelDB wrote
 * is never changed again, so the block-by-block walk (CRC-32C in JavaScript, ~300 MB/s here) is done once
 * per table, at the close that follows its writing or at the first open, and later opens compare one
 * native whole-file CRC-32 (zlib, ~1.7 GB/s): with a million records, 0.1 s instead of 0.4–0.7 s. Any
 * change to a table changes that CRC (every burst up to 32 bits, every odd number of flipped bits), and
 * the table is then walked and its bad block named. An unreadable list is no list: every table is walked.
 */
export const VERIFIED_FILE = 'VERIFIED-TABLES';

export interface VerifiedTable {
  size: number;
  crc: number;
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

function wholeFileCrc(bytes: Buffer): number | undefined {
  return nativeCrc32?.(bytes);
}

function readVerifiedTables(dir: string): Map<number, VerifiedTable> {
  const known = new Map<number, VerifiedTable>();
  let text: string;
  try {
    text = readFileSync(join(dir, VERIFIED_FILE), 'latin1');
  } catch {
    return known;
  }
  for (const line of text.split('\n')) {
    const match = /^(\d+) (\d+) (\d+)$/.exec(line);
    if (match !== null) known.set(Number(match[1]), { size: Number(match[2]), crc: Number(match[3]) });
  }
  return known;
}

/** Writes the list of tables proved whole (replacing it: tables LevelDB deleted drop out). */
export function recordVerifiedTables(dir: string, verified: Map<number, VerifiedTable>): void {
  if (nativeCrc32 === undefined) return;
  const path = join(dir, VERIFIED_FILE);
  const lines = [...verified].map(([number, { size, crc }]) => `${number} ${size} ${crc}\n`).join('');
  writeFileSync(`${path}.tmp`, lines, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/**
 * At close (LevelDB closed, its files still): proves the tables written since the open and records them,
 * so the next open only compares CRCs. Damage found here is left for the next open to refuse.
 */
export function verifyTablesAtClose(dir: string): void {
  const check = checkStateFiles(dir);
  if (check.damage.length === 0) recordVerifiedTables(dir, check.verified);
}

/** One buffer for every table read (tables are ~2 MiB each): a million records' 60 MB need not pass through the GC. */
let tableBuffer = Buffer.alloc(0);

function readInto(path: string, size: number): Buffer {
  if (tableBuffer.length < size) tableBuffer = Buffer.allocUnsafe(Math.max(size, 4 << 20));
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    while (read < size) {
      const n = readSync(fd, tableBuffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return tableBuffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** After LevelDB opened the files: the database must hold the batch the seal names. */
export function checkAgainstSeal(check: FileCheck, heldBatch: number): Damage | undefined {
  const sealed = check.seal?.batch ?? 0;
  if (heldBatch >= sealed) return undefined;
  const where = check.tornTail === undefined ? 'the log was cut at a record boundary, or a log file removed' : `${check.tornTail.file} ends in ${check.tornTail.what} at byte ${check.tornTail.offset}`;
  return {
    file: check.tornTail?.file ?? 'the log',
    kind: 'log',
    found: `the database ends at batch ${heldBatch}, but batches up to ${sealed} were acknowledged (their webhooks answered 200; ${SEAL_FILE} says so), so ${sealed - heldBatch} acknowledged batches are missing: ${where}`,
  };
}

/**
 * Whether a process holds LevelDB's LOCK on DIR, read from /proc/locks (Linux) before any file is read: a
 * serve writing the directory would make its files look torn. Elsewhere, false: LevelDB's own open still
 * refuses, only after the check.
 */
export function lockHeld(dir: string): boolean {
  let id: string;
  let locks: string;
  try {
    const { dev, ino } = statSync(join(dir, 'LOCK'));
    // /proc/locks prints the device as major:minor in hex (Linux's user-space dev_t encoding).
    const major = ((dev >>> 8) & 0xfff) | (Math.floor(dev / 2 ** 32) & ~0xfff);
    const minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00);
    id = `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}`;
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return false;
  }
  return locks.split('\n').some((line) => line.split(/\s+/).includes(id));
}
