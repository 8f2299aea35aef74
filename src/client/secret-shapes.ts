/**
 * The shapes a secret can leave the harness in besides its plain text: URL-encoded in a form body,
 * JSON-escaped, base64 or base64url encoded (Basic auth, a JWT payload, a JWK inside a Client Secret), hex,
 * and the base64 text it produces at any byte offset inside a longer encoded value. redact.ts matches them.
 */

export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not redacted as free text: they would shred every report. */
export const MIN_SECRET_CHARS = 4;
/** The offset-shifted base64 shapes are shorter than the secret; below this they match random text. */
const MIN_SHIFTED_CHARS = 10;

function toBase64Url(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The base64 characters that depend only on the secret's bytes when it is encoded after `shift` other
 * bytes (0, 1 or 2): whatever surrounds it, this text appears in the encoding of the larger value.
 */
function shiftedBase64Core(secret: Buffer, shift: number): string {
  const padded = Buffer.concat([Buffer.alloc(shift), secret]);
  const b64 = padded.toString('base64').replace(/=+$/, '');
  // Characters covering a filler byte are skipped: a group of 4 chars covers 3 bytes.
  const skipChars = shift === 0 ? 0 : shift === 1 ? 2 : 3;
  // The last character may carry bits of the byte after the secret; drop it unless the length aligns.
  const totalBytes = shift + secret.length;
  const dropTail = totalBytes % 3 === 0 ? 0 : 1;
  return b64.slice(skipChars, b64.length - dropTail);
}

/**
 * Replaces the given shapes (longest first) without compiling anything: for the few values of one request
 * (its HMAC signature), where building a regular expression per request would cost more than the search.
 */
export function replaceShapes(text: string, shapes: readonly string[]): string {
  let out = text;
  for (const shape of shapes) if (out.includes(shape)) out = out.split(shape).join(REDACTED);
  return out;
}

/** secretShapes of each value, merged, longest first. */
export function shapesLongestFirst(values: readonly string[]): string[] {
  return [...new Set(values.flatMap((value) => secretShapes(value)))].sort((a, b) => b.length - a.length);
}

/** Every text shape in which a secret could appear in a request, response or message. */
export function secretShapes(secret: string): string[] {
  if (secret.length < MIN_SECRET_CHARS) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const b64 = bytes.toString('base64');
  const shapes = new Set<string>([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    b64,
    b64.replace(/=+$/, ''),
    toBase64Url(b64),
  ]);
  for (let shift = 0; shift < 3; shift += 1) {
    const core = shiftedBase64Core(bytes, shift);
    if (core.length >= MIN_SHIFTED_CHARS) {
      shapes.add(core);
      shapes.add(toBase64Url(core));
    }
  }
  // Hex is byte-aligned: the secret's hex is a substring of any larger hex dump that holds it.
  const hex = bytes.toString('hex');
  shapes.add(hex);
  shapes.add(hex.toUpperCase());
  // A base64/base64url value (a signature, a random token) also leaves as its decoded bytes re-encoded.
  for (const decoded of decodedForms(secret)) {
    const decodedHex = decoded.toString('hex');
    shapes.add(decodedHex);
    shapes.add(decodedHex.toUpperCase());
    const decodedB64 = decoded.toString('base64');
    shapes.add(decodedB64);
    shapes.add(decodedB64.replace(/=+$/, ''));
    shapes.add(toBase64Url(decodedB64));
  }
  return [...shapes].filter((shape) => shape.length >= MIN_SECRET_CHARS);
}

/** The bytes a base64 or base64url text of at least 16 bytes stands for (none for other texts). */
function decodedForms(secret: string): Buffer[] {
  if (secret.length < 22 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(secret)) return [];
  const decoded = Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return decoded.length >= 16 ? [decoded] : [];
}
