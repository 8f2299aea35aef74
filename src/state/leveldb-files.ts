/**
 * Readers of LevelDB's own file formats (doc/log_format.md and doc/table_format.md of LevelDB 1.23, which
 * classic-level bundles), used only to check the files before LevelDB opens them. LevelDB cannot be asked
 * to: classic-level exposes neither `paranoid_checks` nor `verify_checksums`, and without them LevelDB
 * reads a cut-off log as a clean end, skips a log record whose checksum fails (and the rest of its 32 KiB
 * block), and serves a table block without checking its CRC. These readers check every CRC and say where
 * the first bad byte is; they never write.
 *
 * Nothing here imports classic-level: the formats are LevelDB's, stable since 2011.
 */
import { crc32c, maskCrc } from './crc32c.js';

const BLOCK = 32_768;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/** One logical record of a log file (a WriteBatch in a .log, a VersionEdit in a MANIFEST). */
export interface LogRecord {
  /** Offset of its first fragment's header. */
  offset: number;
  data: Buffer;
}

/** Where a log file stops being readable, and whether anything readable follows. */
export interface LogDamage {
  offset: number;
  what: string;
  /** A record with a good checksum lies after the damage: the file is damaged in the middle, not torn at its end. */
  followed: boolean;
  /** Bytes from the damage to the end of the file. */
  bytes: number;
}

export interface LogRead {
  records: LogRecord[];
  /** The first damage, if any; records after it are not in `records`. */
  damage?: LogDamage;
}

/**
 * Reads every record of a log file. Stops at the first damage (a checksum mismatch, an impossible length,
 * fragments out of order, a record cut by the end of the file) and looks ahead, block by block, for a
 * record whose checksum holds: that tells a log torn by a crash at its tail from one damaged in the middle.
 */
export function readLog(file: Buffer): LogRead {
  const records: LogRecord[] = [];
  let pending: { offset: number; parts: Buffer[] } | undefined;
  let offset = 0;
  const damaged = (at: number, what: string): LogRead => ({
    records,
    damage: { offset: at, what, followed: goodRecordAfter(file, at), bytes: file.length - at },
  });
  while (offset < file.length) {
    const left = BLOCK - (offset % BLOCK);
    if (left < HEADER) {
      // The writer pads a block's last < 7 bytes with zeros; anything else there is damage.
      if (file.subarray(offset, Math.min(file.length, offset + left)).some((byte) => byte !== 0)) return damaged(offset, 'bytes other than the zero padding at the end of a block');
      offset += left;
      continue;
    }
    if (offset + HEADER > file.length) return damaged(offset, `a record header cut off by the end of the file (${file.length - offset} of 7 bytes)`);
    const length = file.readUInt16LE(offset + 4);
    const type = file[offset + 6]!;
    if (type === 0 && length === 0) {
      // Zeros where a header should be: a preallocated or zero-filled tail. Only zeros may follow.
      const rest = file.subarray(offset);
      if (rest.some((byte) => byte !== 0)) return damaged(offset, 'a zero header followed by data');
      break;
    }
    if (HEADER + length > left) return damaged(offset, `a record length (${length}) running past its 32 KiB block`);
    if (offset + HEADER + length > file.length) return damaged(offset, `a record cut off by the end of the file (${file.length - offset - HEADER} of ${length} bytes)`);
    const stored = file.readUInt32LE(offset);
    const actual = maskCrc(crc32c(file, offset + 6, offset + HEADER + length));
    if (stored !== actual) return damaged(offset, 'a record whose checksum does not match its bytes');
    const data = file.subarray(offset + HEADER, offset + HEADER + length);
    if (type === FULL || type === FIRST) {
      if (pending !== undefined) return damaged(pending.offset, 'a record whose fragments stop before its last one');
      if (type === FULL) records.push({ offset, data });
      else pending = { offset, parts: [data] };
    } else if (type === MIDDLE || type === LAST) {
      if (pending === undefined) return damaged(offset, 'a fragment without the start of its record');
      pending.parts.push(data);
      if (type === LAST) {
        records.push({ offset: pending.offset, data: Buffer.concat(pending.parts) });
        pending = undefined;
      }
    } else return damaged(offset, `a record of unknown type ${type}`);
    offset += HEADER + length;
  }
  if (pending !== undefined) return damaged(pending.offset, 'a record whose last fragment is missing at the end of the file');
  return { records };
}

/**
 * Whether a record with a valid checksum lies after `from`. In the damaged block the record boundaries
 * are lost, so every offset is tried; every later block starts with a record header (the writer never
 * lets a header straddle blocks), so only its first bytes are.
 */
function goodRecordAfter(file: Buffer, from: number): boolean {
  const firstBlockEnd = Math.min(file.length, (Math.floor(from / BLOCK) + 1) * BLOCK);
  for (let offset = from + 1; offset + HEADER <= firstBlockEnd; offset += 1) if (validRecordAt(file, offset, firstBlockEnd)) return true;
  for (let block = firstBlockEnd; block + HEADER <= file.length; block += BLOCK) if (validRecordAt(file, block, Math.min(file.length, block + BLOCK))) return true;
  return false;
}

function validRecordAt(file: Buffer, offset: number, blockEnd: number): boolean {
  const length = file.readUInt16LE(offset + 4);
  const type = file[offset + 6]!;
  if (type < FULL || type > LAST || offset + HEADER + length > blockEnd) return false;
  return file.readUInt32LE(offset) === maskCrc(crc32c(file, offset + 6, offset + HEADER + length));
}

/** A little-endian base-128 varint at `offset` (up to 2^53). */
export function varint(data: Buffer, offset: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = offset; i < data.length && i < offset + 10; i += 1) {
    const byte = data[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    scale *= 128;
  }
  throw new RangeError(`a varint at ${offset} runs past its data`);
}

function slice(data: Buffer, offset: number): { value: Buffer; next: number } {
  const { value: length, next } = varint(data, offset);
  if (next + length > data.length) throw new RangeError(`a length-prefixed field at ${offset} runs past its data`);
  return { value: data.subarray(next, next + length), next: next + length };
}

/** A WriteBatch's header and operations (db/write_batch.cc). */
export interface WriteBatchView {
  sequence: number;
  count: number;
  operations: Array<{ type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer }>;
}

export function parseWriteBatch(data: Buffer): WriteBatchView {
  if (data.length < 12) throw new RangeError('a write batch shorter than its 12-byte header');
  const sequence = Number(data.readBigUInt64LE(0));
  const count = data.readUInt32LE(8);
  const operations: WriteBatchView['operations'] = [];
  let offset = 12;
  while (offset < data.length) {
    const tag = data[offset]!;
    const key = slice(data, offset + 1);
    if (tag === 1) {
      const value = slice(data, key.next);
      operations.push({ type: 'put', key: key.value, value: value.value });
      offset = value.next;
    } else if (tag === 0) {
      operations.push({ type: 'del', key: key.value });
      offset = key.next;
    } else throw new RangeError(`an operation of unknown tag ${tag}`);
  }
  if (operations.length !== count) throw new RangeError(`a write batch whose header counts ${count} operations, holding ${operations.length}`);
  return { sequence, count, operations };
}

/** What a MANIFEST says: the tables of the current version and the logs LevelDB replays. */
export interface ManifestView {
  /** Live tables: file number → size in bytes. */
  tables: Map<number, number>;
  logNumber: number;
  prevLogNumber: number;
}

/** Applies every VersionEdit of a MANIFEST's records (db/version_edit.cc). */
export function parseManifest(records: LogRecord[]): ManifestView {
  const tables = new Map<number, number>();
  let logNumber = 0;
  let prevLogNumber = 0;
  for (const record of records) {
    const data = record.data;
    let offset = 0;
    while (offset < data.length) {
      const tag = varint(data, offset);
      offset = tag.next;
      switch (tag.value) {
        case 1: // comparator
          offset = slice(data, offset).next;
          break;
        case 2: // log number
        case 3: // next file number
        case 4: // last sequence
        case 9: {
          // prev log number
          const number = varint(data, offset);
          if (tag.value === 2) logNumber = number.value;
          if (tag.value === 9) prevLogNumber = number.value;
          offset = number.next;
          break;
        }
        case 5: // compact pointer: level, key
          offset = slice(data, varint(data, offset).next).next;
          break;
        case 6: {
          // deleted file: level, number
          const number = varint(data, varint(data, offset).next);
          tables.delete(number.value);
          offset = number.next;
          break;
        }
        case 7: {
          // new file: level, number, size, smallest, largest
          const number = varint(data, varint(data, offset).next);
          const size = varint(data, number.next);
          tables.set(number.value, size.value);
          offset = slice(data, slice(data, size.next).next).next;
          break;
        }
        default:
          throw new RangeError(`a version edit of unknown tag ${tag.value} at byte ${record.offset}`);
      }
    }
  }
  return { tables, logNumber, prevLogNumber };
}

const TABLE_MAGIC = Buffer.from([0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]);
const FOOTER = 48;
const TRAILER = 5;

/**
 * Checks one table file (table/format.cc): its footer, then every block's CRC (data, filter, metaindex,
 * index), and that the blocks and the footer tile the file exactly. Returns undefined when whole, else
 * what is wrong and where.
 */
export function checkTable(file: Buffer): string | undefined {
  if (file.length < FOOTER) return `${file.length} bytes, shorter than a table's 48-byte footer`;
  const footer = file.subarray(file.length - FOOTER);
  if (!footer.subarray(40).equals(TABLE_MAGIC)) return 'no table magic number at the end (the file is cut or overwritten)';
  try {
    const meta = varint(footer, 0);
    const metaSize = varint(footer, meta.next);
    const index = varint(footer, metaSize.next);
    const indexSize = varint(footer, index.next);
    const covered: Array<[number, number]> = [];
    /** Checks a block's CRC and marks its bytes covered; `read` also returns its contents, uncompressed. */
    const block = (offset: number, size: number, what: string, read = false): Buffer | undefined => {
      if (offset + size + TRAILER > file.length - FOOTER) throw new RangeError(`the ${what} block at ${offset} runs past the footer`);
      const type = file[offset + size]!;
      if (file.readUInt32LE(offset + size + 1) !== maskCrc(crc32c(file, offset, offset + size + 1))) throw new RangeError(`the ${what} block at byte ${offset} does not match its checksum`);
      if (type > 1) throw new RangeError(`the ${what} block at byte ${offset} has unknown compression ${type}`);
      covered.push([offset, size + TRAILER]);
      if (!read) return undefined;
      const contents = file.subarray(offset, offset + size);
      return type === 0 ? contents : snappyUncompress(contents);
    };
    for (const handle of blockHandles(block(index.value, indexSize.value, 'index', true)!)) block(handle.offset, handle.size, 'data');
    for (const handle of blockHandles(block(meta.value, metaSize.value, 'metaindex', true)!)) block(handle.offset, handle.size, 'filter');
    covered.sort((a, b) => a[0] - b[0]);
    let end = 0;
    for (const [offset, length] of covered) {
      if (offset !== end) return `bytes ${end}–${offset} belong to no block`;
      end = offset + length;
    }
    if (end !== file.length - FOOTER) return `bytes ${end}–${file.length - FOOTER} belong to no block`;
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The BlockHandle values of a block's entries (an index or a metaindex block). */
function blockHandles(contents: Buffer): Array<{ offset: number; size: number }> {
  if (contents.length < 4) throw new RangeError('a block shorter than its restart count');
  const restarts = contents.readUInt32LE(contents.length - 4);
  const limit = contents.length - 4 - restarts * 4;
  if (limit < 0) throw new RangeError('a block whose restart array is larger than the block');
  const handles: Array<{ offset: number; size: number }> = [];
  let offset = 0;
  while (offset < limit) {
    const shared = varint(contents, offset);
    const unshared = varint(contents, shared.next);
    const valueLength = varint(contents, unshared.next);
    const value = valueLength.next + unshared.value;
    if (value + valueLength.value > limit) throw new RangeError('a block entry running past its block');
    const handleOffset = varint(contents, value);
    const handleSize = varint(contents, handleOffset.next);
    handles.push({ offset: handleOffset.value, size: handleSize.value });
    offset = value + valueLength.value;
  }
  return handles;
}

/** Snappy's raw format (format_description.txt): the compression LevelDB applies to table blocks. */
export function snappyUncompress(input: Buffer): Buffer {
  const header = varint(input, 0);
  const out = Buffer.alloc(header.value);
  let o = 0;
  let i = header.next;
  while (i < input.length) {
    const tag = input[i]!;
    i += 1;
    if ((tag & 3) === 0) {
      let length = tag >>> 2;
      if (length >= 60) {
        const bytes = length - 59;
        length = 0;
        for (let b = 0; b < bytes; b += 1) length += input[i + b]! * 2 ** (8 * b);
        i += bytes;
      }
      length += 1;
      if (i + length > input.length || o + length > out.length) throw new RangeError('a snappy literal running past its block');
      input.copy(out, o, i, i + length);
      i += length;
      o += length;
      continue;
    }
    let length: number;
    let distance: number;
    if ((tag & 3) === 1) {
      length = ((tag >>> 2) & 7) + 4;
      distance = ((tag >>> 5) << 8) | input[i]!;
      i += 1;
    } else if ((tag & 3) === 2) {
      length = (tag >>> 2) + 1;
      distance = input.readUInt16LE(i);
      i += 2;
    } else {
      length = (tag >>> 2) + 1;
      distance = input.readUInt32LE(i);
      i += 4;
    }
    if (distance === 0 || distance > o || o + length > out.length) throw new RangeError('a snappy copy outside its block');
    for (let k = 0; k < length; k += 1) out[o + k] = out[o - distance + k]!;
    o += length;
  }
  if (o !== out.length) throw new RangeError(`a snappy block of ${o} bytes where its header says ${out.length}`);
  return out;
}
