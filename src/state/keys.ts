/**
 * The layout of the state database: every key starts with one byte naming its kind, so each kind is one
 * contiguous key range.
 *
 *   e <listener> <event>          → expiry (float64 BE, the clock's Unix seconds)    idempotency records
 *   x <expiry BE> e <listener> <event> → (empty)                                      sweep index, expiry order
 *   r <listener> <seq u32 BE>     → run JSON                                          automation runs
 *   m <name>                      → JSON or float64                                   tenant, clock, counters
 *
 * <listener> is length-prefixed (u16) UTF-8; <event> is a tag byte then 16 bytes for a canonical UUID (the
 * reference lower-cases the IDs it accepts) or the UTF-8 text of anything else, so a record costs ~30 bytes
 * of key instead of ~50. Positive doubles written big-endian sort as numbers, so the index walks in expiry
 * order.
 */
const EVENT = 0x65; // 'e'
const INDEX = 0x78; // 'x'
const RUN = 0x72; // 'r'
const META = 0x6d; // 'm'
const UUID_TAG = 0x01;
const TEXT_TAG = 0x02;
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function listenerBytes(listenerId: string): Buffer {
  const text = Buffer.from(listenerId, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(Math.min(text.length, 0xffff));
  return Buffer.concat([length, text.subarray(0, 0xffff)]);
}

export function eventKey(listenerId: string, eventId: string): Buffer {
  const event = CANONICAL_UUID.test(eventId)
    ? Buffer.concat([Buffer.of(UUID_TAG), Buffer.from(eventId.replace(/-/g, ''), 'hex')])
    : Buffer.concat([Buffer.of(TEXT_TAG), Buffer.from(eventId, 'utf8')]);
  return Buffer.concat([Buffer.of(EVENT), listenerBytes(listenerId), event]);
}

export function float64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeDoubleBE(value);
  return buffer;
}

export function readFloat64(buffer: Buffer, offset = 0): number {
  return buffer.readDoubleBE(offset);
}

export function indexKey(expiresAt: number, key: Buffer): Buffer {
  return Buffer.concat([Buffer.of(INDEX), float64(expiresAt), key]);
}

/** The index range of records expired at `now` (expiry ≤ now): [x, x<next double after now>). */
export function expiredIndexRange(now: number): [Buffer, Buffer] {
  const bound = float64(now);
  // The next representable double above `now`, so a record expiring exactly at `now` is included.
  const next = Buffer.from(bound);
  next.writeBigUInt64BE(next.readBigUInt64BE(0) + 1n);
  return [Buffer.of(INDEX), Buffer.concat([Buffer.of(INDEX), next])];
}

/** The expiry and the record key an index key names. */
export function parseIndexKey(key: Buffer): { expiresAt: number; recordKey: Buffer } {
  return { expiresAt: key.readDoubleBE(1), recordKey: key.subarray(9) };
}

export function runKey(listenerId: string, seq: number): Buffer {
  const position = Buffer.alloc(4);
  position.writeUInt32BE(seq);
  return Buffer.concat([Buffer.of(RUN), listenerBytes(listenerId), position]);
}

/** Every idempotency record key: [e, f). */
export const EVENT_RANGE: [Buffer, Buffer] = [Buffer.of(EVENT), Buffer.of(EVENT + 1)];

/** Every run key: [r, s). */
export const RUN_RANGE: [Buffer, Buffer] = [Buffer.of(RUN), Buffer.of(RUN + 1)];

export function parseRunKey(key: Buffer): { listenerId: string; seq: number } {
  const length = key.readUInt16BE(1);
  return { listenerId: key.subarray(3, 3 + length).toString('utf8'), seq: key.readUInt32BE(3 + length) };
}

export function metaKey(name: string): Buffer {
  return Buffer.concat([Buffer.of(META), Buffer.from(name, 'utf8')]);
}
