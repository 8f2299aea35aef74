// UUID v4 from 16 random bytes (RFC 4122 §4.4). No k6 or Node import: the caller injects the randomness
// (k6/crypto randomBytes in the scripts, node:crypto in tests), so this runs in both.

/** @type {string[]} */
const HEX = [];
for (let i = 0; i < 256; i++) HEX.push((i + 0x100).toString(16).slice(1));

/**
 * Formats 16 random bytes as a UUID v4: version nibble 4, variant bits 10 (RFC 4122).
 * @param {ArrayBuffer | Uint8Array} random at least 16 bytes
 * @returns {string} lower-case UUID v4
 */
export function uuidV4FromBytes(random) {
  const b = random instanceof Uint8Array ? random : new Uint8Array(random);
  if (b.length < 16) throw new Error('uuidV4FromBytes needs 16 random bytes, got ' + b.length);
  const v6 = (b[6] & 0x0f) | 0x40;
  const v8 = (b[8] & 0x3f) | 0x80;
  return (
    HEX[b[0]] + HEX[b[1]] + HEX[b[2]] + HEX[b[3]] + '-' +
    HEX[b[4]] + HEX[b[5]] + '-' +
    HEX[v6] + HEX[b[7]] + '-' +
    HEX[v8] + HEX[b[9]] + '-' +
    HEX[b[10]] + HEX[b[11]] + HEX[b[12]] + HEX[b[13]] + HEX[b[14]] + HEX[b[15]]
  );
}
