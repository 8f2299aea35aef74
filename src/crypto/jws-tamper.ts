/**
 * Signature and serialisation edge cases of compact JWS that real verifiers have got wrong: ECDSA values
 * that are zero or not reduced modulo the group order (CVE-2022-21449, "psychic signatures"), DER-encoded
 * ECDSA where JOSE requires the fixed-width r‖s (RFC 7518 §3.4), signatures one byte too long or too short,
 * a valid signature lifted onto another message, and claim sets whose JSON repeats a member (RFC 7519 §4).
 * node:crypto only: nothing here needs jose, and each mutation is a pure function of the token text.
 */

/** The order n of the P-256 group (SEC 2 §2.4.2; FIPS 186-4 D.1.2.3). */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * How a signature is broken after a valid one is made:
 * - `zero`: every byte 0 (r = s = 0), the CVE-2022-21449 token;
 * - `r-zero` / `s-zero`: one half zeroed, the other kept;
 * - `r-order` / `s-order`: one half replaced by n itself (≥ n, so out of range; ≡ 0 mod n);
 * - `der`: the same r and s as an ASN.1 DER SEQUENCE (what OpenSSL and Java produce natively);
 * - `append`: one byte 0x00 appended; `truncate`: the last byte dropped.
 */
export type SignatureTamper = 'zero' | 'r-zero' | 's-zero' | 'r-order' | 's-order' | 'der' | 'append' | 'truncate';

export const SIGNATURE_TAMPERS: readonly SignatureTamper[] = ['zero', 'r-zero', 's-zero', 'r-order', 's-order', 'der', 'append', 'truncate'];

const ES256_HALF = 32;

function toFixed(value: bigint, bytes: number): Buffer {
  return Buffer.from(value.toString(16).padStart(bytes * 2, '0'), 'hex');
}

/** One DER INTEGER: big-endian, minimal, a leading 0x00 when the top bit is set (positive). */
function derInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  let body = bytes.subarray(start);
  if ((body[0]! & 0x80) !== 0) body = Buffer.concat([Buffer.from([0]), body]);
  return Buffer.concat([Buffer.from([0x02, body.length]), body]);
}

/** r‖s (IEEE P1363, the JOSE form) → DER `SEQUENCE { INTEGER r, INTEGER s }`. */
export function p1363ToDer(signature: Buffer): Buffer {
  const half = signature.length / 2;
  const content = Buffer.concat([derInteger(signature.subarray(0, half)), derInteger(signature.subarray(half))]);
  // P-256 content is at most 70 bytes: the short length form always fits.
  return Buffer.concat([Buffer.from([0x30, content.length]), content]);
}

/** The signature bytes with one tamper applied. ECDSA-specific tampers need a 64-byte ES256 signature. */
export function tamperSignatureBytes(signature: Buffer, tamper: SignatureTamper): Buffer {
  const ecdsa = (): void => {
    if (signature.length !== ES256_HALF * 2) throw new RangeError(`tamper "${tamper}" needs a 64-byte ES256 signature, got ${signature.length} bytes`);
  };
  switch (tamper) {
    case 'zero':
      return Buffer.alloc(signature.length);
    case 'r-zero':
    case 's-zero': {
      ecdsa();
      const out = Buffer.from(signature);
      out.fill(0, tamper === 'r-zero' ? 0 : ES256_HALF, tamper === 'r-zero' ? ES256_HALF : ES256_HALF * 2);
      return out;
    }
    case 'r-order':
    case 's-order': {
      ecdsa();
      const order = toFixed(P256_ORDER, ES256_HALF);
      const r = tamper === 'r-order' ? order : signature.subarray(0, ES256_HALF);
      const s = tamper === 's-order' ? order : signature.subarray(ES256_HALF);
      return Buffer.concat([r, s]);
    }
    case 'der':
      ecdsa();
      return p1363ToDer(signature);
    case 'append':
      return Buffer.concat([signature, Buffer.from([0])]);
    case 'truncate':
      return signature.subarray(0, signature.length - 1);
  }
}

/** The compact JWS with its signature tampered (header and payload untouched). */
export function tamperSignature(jws: string, tamper: SignatureTamper): string {
  const [head, body, signature] = jws.split('.');
  const bytes = Buffer.from(signature ?? '', 'base64url');
  return `${head}.${body}.${tamperSignatureBytes(bytes, tamper).toString('base64url')}`;
}

/**
 * `donor`'s signature on `recipient`'s header and payload: a signature made by the right key, over another
 * message. Both must be compact JWS.
 */
export function spliceSignature(recipient: string, donor: string): string {
  const [head, body] = recipient.split('.');
  const signature = donor.split('.')[2] ?? '';
  return `${head}.${body}.${signature}`;
}

/**
 * JSON text of `claims` in which each claim named in `duplicates` is written twice, next to each other: the
 * wrong value (from `duplicates`) first and the valid one last (`wrong-first`: a last-wins parser reads the
 * valid value), or the other way round (`wrong-last`: only a first-wins parser reads the valid value).
 * JSON.stringify cannot produce repeated members; RFC 7519 §4 says Claim Names MUST be unique.
 */
export function duplicateClaims(claims: Record<string, unknown>, duplicates: Record<string, unknown>, order: 'wrong-first' | 'wrong-last'): string {
  const members: string[] = [];
  for (const [name, value] of Object.entries(claims)) {
    const member = (v: unknown): string => `${JSON.stringify(name)}:${JSON.stringify(v)}`;
    if (Object.prototype.hasOwnProperty.call(duplicates, name)) {
      const wrong = member(duplicates[name]);
      members.push(...(order === 'wrong-first' ? [wrong, member(value)] : [member(value), wrong]));
    } else {
      members.push(member(value));
    }
  }
  return `{${members.join(',')}}`;
}
