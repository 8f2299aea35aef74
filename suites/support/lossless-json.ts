/**
 * JSON read without losing anything a JavaScript number would: every number stays as its text, so a
 * context can be compared with the body sent digit for digit (`9007199254740993` is not
 * `9007199254740992`, `-0` is not `0`, `1e400` is not `null`). Strings are compared by the text they
 * decode to, so `\/` and `/`, or `\u00e9` and `é`, are the same string, as RFC 8259 §7 says.
 */

export class JsonNumber {
  constructor(readonly text: string) {}
}

export type LosslessValue = null | boolean | string | JsonNumber | LosslessValue[] | Map<string, LosslessValue>;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Characters a string holds as themselves: anything but `"`, `\` and controls. */
const PLAIN = /[^"\\\u0000-\u001f]+/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses RFC 8259 JSON text; numbers become {@link JsonNumber}, objects Maps (a repeated key: the last wins). */
export function parseLossless(text: string): LosslessValue {
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${at}`);
  };
  const skipWs = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const expect = (literal: string): void => {
    if (text.startsWith(literal, at)) at += literal.length;
    else fail(`expected ${literal}`);
  };
  const readString = (): string => {
    at += 1; // the opening quote
    let out = '';
    for (;;) {
      if (at >= text.length) fail('unterminated string');
      const ch = text[at]!;
      if (ch === '"') {
        at += 1;
        return out;
      }
      if (ch < ' ') fail('control character in a string');
      if (ch !== '\\') {
        // A run of plain characters at once: a runs-hook answer can hold megabytes of string.
        PLAIN.lastIndex = at;
        const plain = PLAIN.exec(text)![0];
        out += plain;
        at += plain.length;
        continue;
      }
      const escape = text[at + 1];
      if (escape === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        at += 6;
      } else if (escape !== undefined && escape in ESCAPES) {
        out += ESCAPES[escape];
        at += 2;
      } else {
        fail('bad escape');
      }
    }
  };
  /** At the start of an object or array (`bracket` its closing one): true, and consumed, when it is empty. */
  const opensEmpty = (bracket: '}' | ']'): boolean => {
    at += 1;
    skipWs();
    if (text[at] !== bracket) return false;
    at += 1;
    return true;
  };
  /** After a member or an element: true, and consumed, at the closing `bracket`; false after a comma. */
  const closes = (bracket: '}' | ']'): boolean => {
    skipWs();
    if (text[at] === ',') {
      at += 1;
      return false;
    }
    if (text[at] !== bracket) fail(`expected , or ${bracket}`);
    at += 1;
    return true;
  };
  const readValue = (depth: number): LosslessValue => {
    if (depth > 512) fail('nesting too deep');
    skipWs();
    const ch = text[at];
    if (ch === '{') {
      const map = new Map<string, LosslessValue>();
      if (opensEmpty('}')) return map;
      do {
        skipWs();
        if (text[at] !== '"') fail('expected a key');
        const key = readString();
        skipWs();
        expect(':');
        map.set(key, readValue(depth + 1));
      } while (!closes('}'));
      return map;
    }
    if (ch === '[') {
      const list: LosslessValue[] = [];
      if (opensEmpty(']')) return list;
      do list.push(readValue(depth + 1));
      while (!closes(']'));
      return list;
    }
    if (ch === '"') return readString();
    if (text.startsWith('true', at)) return (at += 4), true;
    if (text.startsWith('false', at)) return (at += 5), false;
    if (text.startsWith('null', at)) return (at += 4), null;
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) return fail('unexpected character');
    at += match[0].length;
    return new JsonNumber(match[0]);
  };
  const value = readValue(0);
  skipWs();
  if (at !== text.length) fail('text after the JSON value');
  return value;
}

/**
 * The exact value of a JSON number as `<sign><digits>e<exponent>` without redundant zeros: equal texts mean
 * equal numbers (`1E+2` and `100.0` both give `1e2`). The sign of zero is kept: `-0` stays `-0`.
 */
export function canonicalNumber(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new SyntaxError(`not a JSON number: ${text}`);
  const [, sign = '', integer = '', fraction = '', exponent = '0'] = match;
  let digits = `${integer}${fraction}`.replace(/^0+/, '');
  if (digits === '') return `${sign}0`;
  let exp = BigInt(exponent) - BigInt(fraction.length);
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  exp += BigInt(trailing);
  return `${sign}${digits}e${exp}`;
}

/** JSON text of a lossless value (numbers as read), cut to `max` characters: for failure messages. */
export function showLossless(value: LosslessValue, max = 80): string {
  const write = (v: LosslessValue): string => {
    if (v instanceof JsonNumber) return v.text;
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    if (v instanceof Map) return `{${[...v].map(([key, inner]) => `${JSON.stringify(key)}:${write(inner)}`).join(',')}}`;
    return JSON.stringify(v);
  };
  const text = write(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The first path at which two lossless values differ (numbers by exact value), or undefined when equal. */
export function losslessDifference(expected: LosslessValue, actual: LosslessValue, path = '$'): string | undefined {
  const differs = (): string => `${path}: expected ${showLossless(expected)}, got ${showLossless(actual)}`;
  if (expected instanceof JsonNumber || actual instanceof JsonNumber) {
    if (!(expected instanceof JsonNumber && actual instanceof JsonNumber)) return differs();
    return canonicalNumber(expected.text) === canonicalNumber(actual.text) ? undefined : differs();
  }
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!(Array.isArray(expected) && Array.isArray(actual))) return differs();
    if (expected.length !== actual.length) return `${path}: array of ${expected.length} items vs ${actual.length}`;
    for (let i = 0; i < expected.length; i += 1) {
      const diff = losslessDifference(expected[i]!, actual[i]!, `${path}[${i}]`);
      if (diff) return diff;
    }
    return undefined;
  }
  if (expected instanceof Map || actual instanceof Map) {
    if (!(expected instanceof Map && actual instanceof Map)) return differs();
    for (const key of expected.keys()) if (!actual.has(key)) return `${path}.${key}: missing`;
    for (const key of actual.keys()) if (!expected.has(key)) return `${path}.${key}: unexpected key`;
    for (const [key, inner] of expected) {
      const diff = losslessDifference(inner, actual.get(key)!, `${path}.${key}`);
      if (diff) return diff;
    }
    return undefined;
  }
  return expected === actual ? undefined : differs();
}
