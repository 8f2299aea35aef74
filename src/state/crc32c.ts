/**
 * CRC-32C (Castagnoli), the checksum LevelDB writes on every log record and table block, and its "mask"
 * (LevelDB stores a rotated CRC so a CRC of data that itself holds CRCs stays strong). Node has no CRC-32C
 * (zlib.crc32 is the IEEE polynomial), so it is computed here, eight bytes a step (slicing-by-8): the
 * verification at open reads every table of the state directory, and a byte-at-a-time loop made the
 * restart with a million records measurably slower.
 */
const POLY = 0x82f63b78;
const TABLES: Uint32Array[] = (() => {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  const first = tables[0]!;
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    first[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n += 1) {
    for (let t = 1; t < 8; t += 1) tables[t]![n] = (first[tables[t - 1]![n]! & 0xff]! ^ (tables[t - 1]![n]! >>> 8)) >>> 0;
  }
  return tables;
})();
const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];

/** CRC-32C of `data[start, end)`, continuing from `crc` (0 to start). */
export function crc32c(data: Uint8Array, start = 0, end = data.length, crc = 0): number {
  let c = ~crc >>> 0;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const a = (c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24))) >>> 0;
    c =
      T7[a & 0xff]! ^
      T6[(a >>> 8) & 0xff]! ^
      T5[(a >>> 16) & 0xff]! ^
      T4[a >>> 24]! ^
      T3[data[i + 4]!]! ^
      T2[data[i + 5]!]! ^
      T1[data[i + 6]!]! ^
      T0[data[i + 7]!]!;
  }
  for (; i < end; i += 1) c = T0[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const MASK_DELTA = 0xa282ead8;

/** LevelDB's stored form of a CRC (crc32c.h Mask). */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
}
