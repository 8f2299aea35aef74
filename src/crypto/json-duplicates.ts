/**
 * Whether a JSON text repeats a member name inside one object. RFC 7515 §4 and RFC 7519 §4 require unique
 * Header Parameter and Claim Names and let a parser either reject duplicates or keep the last one;
 * JSON.parse keeps the last. Two parsers that disagree on which duplicate counts (one component checks the
 * signature's claims with a first-wins parser, another acts on them last-wins) are a known parser
 * differential, so the verifiers here refuse any duplicate outright.
 *
 * A single pass over the text with a stack of open objects; names are compared after JSON unescaping
 * (`"a\u0075d"` is `"aud"`). Built for the few hundred bytes of a JWT header or claim set: it assumes the
 * text is JSON (the parse that follows refuses anything else) and never throws.
 */

interface Frame {
  /** Member names seen so far; null for an array. */
  names: Set<string> | null;
  /** In an object: the next string is a member name. */
  expectName: boolean;
}

/** Index of the closing quote of the string starting at `start` (a `"`), or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 1; // backslash: skip the escaped character
    else if (c === 0x22) return i;
  }
  return -1;
}

function memberName(raw: string): string {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
}

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export function hasDuplicateMember(text: string): boolean {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return false;
      if (top?.names && top.expectName) {
        const name = memberName(text.slice(i, end + 1));
        if (top.names.has(name)) return true;
        top.names.add(name);
        top.expectName = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      stack.push({ names: new Set(), expectName: true });
    } else if (c === OPEN_ARRAY) {
      stack.push({ names: null, expectName: false });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
    } else if (c === COMMA && top?.names) {
      top.expectName = true;
    }
  }
  return false;
}

/** Whether the decoded header or payload segment of a compact JWS repeats a member name. */
export function jwsHasDuplicateMember(jws: string): boolean {
  const [head, body] = jws.split('.', 2);
  for (const part of [head, body]) {
    if (part !== undefined && hasDuplicateMember(Buffer.from(part, 'base64url').toString('utf8'))) return true;
  }
  return false;
}
