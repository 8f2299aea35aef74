/**
 * The high-water mark: the file HIGH-WATER beside LevelDB's files names the last batch whose writers were
 * answered (and how many records the store held then). LevelDB reads a log cut at a record boundary as a
 * clean end, so nothing inside the database can tell that acknowledged batches are gone; this file, kept
 * outside the log, can: at open the database must hold at least the batch it names (proof.ts).
 *
 * It is 32 bytes overwritten in place (magic, version, batch, records, CRC-32C), written after a batch's
 * sync and before its writers are answered. It is not synced itself: it guards against what a crash or a
 * later hand does to the log (a SIGKILL keeps it, since the kernel holds the write), and after a power
 * loss it can only be behind the log, which weakens the check and never raises a false alarm. LevelDB
 * leaves a file of a name it does not know alone.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32c } from './crc32c.js';

export const SEAL_FILE = 'HIGH-WATER';
const MAGIC = 0x57484341; // "ACHW" little-endian
const VERSION = 1;
const SIZE = 32;

export interface Seal {
  /** The last batch acknowledged (the database's `m batch` of that batch). */
  batch: number;
  /** Idempotency records the store held after it. */
  records: number;
}

function encode(seal: Seal): Buffer {
  const buffer = Buffer.alloc(SIZE);
  buffer.writeUInt32LE(MAGIC, 0);
  buffer.writeUInt32LE(VERSION, 4);
  buffer.writeDoubleLE(seal.batch, 8);
  buffer.writeDoubleLE(seal.records, 16);
  buffer.writeUInt32LE(crc32c(buffer, 0, 28), 28);
  return buffer;
}

/** The seal in DIR: undefined when there is none, a string saying what is wrong when it cannot be read. */
export function readSeal(dir: string): Seal | undefined | string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, SEAL_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (bytes.length !== SIZE) return `${bytes.length} bytes where a seal has ${SIZE} (cut or overwritten)`;
  if (bytes.readUInt32LE(0) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) return 'not a seal this version wrote (its header is wrong)';
  if (bytes.readUInt32LE(28) !== crc32c(bytes, 0, 28)) return 'its checksum does not match its bytes';
  return { batch: bytes.readDoubleLE(8), records: bytes.readDoubleLE(16) };
}

/** Writes the seal at once (a new or repaired database), replacing any. */
export function writeSealSync(dir: string, seal: Seal): void {
  const fd = openSync(join(dir, SEAL_FILE), 'w', 0o600);
  try {
    writeSync(fd, encode(seal), 0, SIZE, 0);
  } finally {
    closeSync(fd);
  }
}

export interface SealWriter {
  write(seal: Seal): Promise<void>;
  close(): Promise<void>;
}

/** Opens the seal for the group commit's writes (in place: an overwrite allocates nothing, so a full disk cannot refuse it). */
export async function openSeal(dir: string): Promise<SealWriter> {
  const handle: FileHandle = await open(join(dir, SEAL_FILE), 'r+');
  return {
    async write(seal) {
      await handle.write(encode(seal), 0, SIZE, 0);
    },
    close: () => handle.close(),
  };
}
