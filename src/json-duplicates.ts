/**
 * Whether a JSON text repeats a member name inside one object. RFC 8259 §4 leaves duplicates to the parser,
 * and JSON.parse keeps the last one silently. Two readers that disagree on which duplicate counts are a
 * known parser differential, so the harness refuses a duplicate wherever it reads JSON that decides
 * something: a JWT header or claim set (RFC 7515 §4 and RFC 7519 §4 require unique names; the verifiers
 * refuse any), and an OpenAPI description written as JSON (its YAML twin is read with unique keys, and a
 * path or operation that vanishes silently is worse than a refused document).
 *
 * A single pass over the text with a stack of open objects; names are compared after JSON unescaping
 * (`"a\u0075d"` is `"aud"`). Linear in the text (a 1.4 MB description takes a few milliseconds); it
 * assumes the text is JSON (the parse that comes with it refuses anything else) and never throws.
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

/** The first repeated member name and the offset of its second occurrence (the opening quote). */
export interface DuplicateMember {
  name: string;
  offset: number;
}

export function hasDuplicateMember(text: string): boolean {
  return firstDuplicateMember(text) !== undefined;
}

export function firstDuplicateMember(text: string): DuplicateMember | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      if (top?.names && top.expectName) {
        const name = memberName(text.slice(i, end + 1));
        if (top.names.has(name)) return { name, offset: i };
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
  return undefined;
}
