/**
 * The canonical JSON form every digest of the attestation is taken over: RFC 8785 (JCS). For the values
 * hashed here (objects, arrays, strings, integers, booleans, null) JCS is JSON.stringify with each object's
 * keys sorted by UTF-16 code unit, so a verifier recomputes a digest with any JCS library, or with Python's
 * `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` for ASCII keys
 * (docs/certify.md). Hashes are lowercase hex SHA-256, as in-toto's DigestSet writes them.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('canonical JSON has no NaN or Infinity');
    // undefined (a missing optional field) is left out by the object case; alone it has no JSON form.
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined && typeof item !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The digest of a value's canonical form. */
export function canonicalDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
