/**
 * Local `$ref`s, resolved lazily: only where the classification looks (parameters, request bodies,
 * responses, the properties of their schemas), so a description of 1–2 MB with recursive schemas is never
 * expanded. A chain of refs is followed with a seen-set (a ref to itself is a bad document, not a hang);
 * a ref to another file or URL is refused: the harness fetches nothing a description points at.
 */
import { descriptionError } from './parse.js';

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `#/components/schemas/A~1B` → its segments (RFC 6901 in a URI fragment, RFC 6901 §6: percent-decoded, then
 * `~1` → `/` and `~0` → `~`). A malformed pointer (a bad percent escape, a `~` not followed by 0 or 1) is a
 * named defect of the description at `where`, never a URIError.
 */
export function pointerSegments(pointer: string, source: string, where: string): string[] {
  if (pointer === '#' || pointer === '') return [];
  const malformed = (why: string) => descriptionError(source, `has a malformed $ref at ${where} (${JSON.stringify(pointer)}: ${why})`);
  if (!pointer.startsWith('#/')) throw malformed('a local reference starts with "#/"');
  return pointer.slice(2).split('/').map((raw) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw malformed(`${JSON.stringify(raw)} is not valid percent-encoding`);
    }
    if (/~(?![01])/.test(decoded)) throw malformed(`${JSON.stringify(decoded)} has a "~" not followed by 0 or 1`);
    return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** `#/components/schemas/A~1B` → the value there, or undefined where nothing is. */
export function valueAtPointer(doc: unknown, pointer: string, source: string, where: string): unknown {
  let value = doc;
  for (const segment of pointerSegments(pointer, source, where)) {
    if (Array.isArray(value) && /^\d+$/.test(segment)) value = value[Number(segment)];
    else if (isObject(value) && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

/** The node itself, or what its `$ref` chain points at. `where` is the JSON pointer of the node, for errors. */
export function deref(doc: unknown, node: unknown, source: string, where: string): unknown {
  let current = node;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (!ref.startsWith('#')) throw descriptionError(source, `has a $ref to another document at ${where} (${JSON.stringify(ref)})`, 'The harness reads one self-contained description and fetches nothing it points at: bundle it first (e.g. `redocly bundle`).');
    if (seen.has(ref)) throw descriptionError(source, `has a $ref cycle at ${where} (${[...seen, ref].join(' → ')})`);
    seen.add(ref);
    const target = valueAtPointer(doc, ref, source, where);
    if (target === undefined) throw descriptionError(source, `has a $ref to nothing at ${where} (${JSON.stringify(ref)})`);
    current = target;
  }
  return current;
}

/** Escapes one JSON pointer segment. */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
