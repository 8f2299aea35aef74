/**
 * The text of a description → a plain JSON value. JSON (first character `{`) goes through JSON.parse, ten
 * times faster than a YAML parser on a 1 MB document, and a scan that refuses a repeated key (JSON.parse
 * keeps the last one silently: an operation would vanish); anything else through `yaml` (eemeli's, YAML
 * 1.2, of which JSON is a subset), whose errors carry a line and column and which refuses duplicate keys and
 * caps alias expansion (a "billion laughs" document is refused, not expanded). Either way the value may nest
 * at most MAX_DESCRIPTION_DEPTH levels, so that no later walk of it can exhaust the stack.
 */
import { createRequire } from 'node:module';
import { HarnessError } from '../errors.js';
import { firstDuplicateMember } from '../json-duplicates.js';
import { jsonErrorLocation } from '../profile/index.js';

/** Alias nodes a document may expand; the real description has none. */
const MAX_ALIAS_COUNT = 1000;

/**
 * How deep objects and arrays may nest. The service's real description nests 10 levels; 256 leaves room for
 * any schema a person writes, and keeps every recursive walk of the document (classification, bundling,
 * Ajv) far from the stack's end.
 */
export const MAX_DESCRIPTION_DEPTH = 256;

const DEFAULT_HINT = 'Give the service\'s OpenAPI 3.1 description (YAML or JSON), as published.';

/**
 * A defect of the description, with its code OPENAPI_INVALID. `what` is the defect alone ("has a $ref cycle
 * at …"): an operation it spoils is listed as not called with it as the reason, the rest of the document
 * still planned (classify.ts).
 */
export class DescriptionError extends HarnessError {
  constructor(
    readonly source: string,
    readonly what: string,
    hint: string,
  ) {
    super('OPENAPI_INVALID', `The OpenAPI description ${source} ${what}.`, { hint });
  }
}

export function descriptionError(source: string, what: string, hint = DEFAULT_HINT): DescriptionError {
  return new DescriptionError(source, what, hint);
}

type Yaml = typeof import('yaml');
let yamlModule: Yaml | undefined;
/**
 * `yaml` loaded at the first YAML document (its CommonJS build, synchronously, as this parser is): a JSON
 * description (the embedded reference's, most services') never pays its some 70 modules.
 */
function yaml(): Yaml {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as Yaml);
}

/** Parses YAML or JSON; a syntax error names the line and column. The result is checked to be an object. */
export function parseDescriptionText(text: string, source: string): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  if (/^\s*\{/.test(body)) {
    try {
      value = JSON.parse(body);
    } catch (error) {
      const at = jsonErrorLocation(body, error);
      throw descriptionError(source, `is not valid JSON${at ? ` (at ${at})` : ''}`);
    }
    const duplicate = firstDuplicateMember(body);
    if (duplicate !== undefined) {
      throw descriptionError(
        source,
        `repeats the key ${JSON.stringify(duplicate.name)} in one object (at ${lineAndColumn(body, duplicate.offset)}); JSON readers disagree on which one counts, so the document is not read`,
        'Remove the repeated key: each key may appear once per object (RFC 8259 §4; the YAML form of a description is refused for the same reason).',
      );
    }
  } else {
    try {
      value = yaml().parse(body, { maxAliasCount: MAX_ALIAS_COUNT, uniqueKeys: true, prettyErrors: true, merge: false });
    } catch (error) {
      if (isStackOverflow(error)) throw tooDeep(source);
      if (error instanceof yaml().YAMLParseError) {
        const at = error.linePos?.[0];
        const first = error.message.split('\n')[0] ?? error.code;
        throw descriptionError(source, `is not valid YAML${at ? ` (at line ${at.line}, column ${at.col})` : ''}: ${first.replace(/ at line \d+, column \d+:?$/, '')}`);
      }
      if (error instanceof Error && /alias/i.test(error.message)) throw descriptionError(source, `expands too many YAML aliases (${error.message})`);
      throw error;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw descriptionError(source, `is ${value === null ? 'empty' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an OpenAPI document (an object with "openapi", "info" and "paths")`);
  }
  const deepest = pointerBeyondDepth(value, MAX_DESCRIPTION_DEPTH);
  if (deepest !== undefined) throw tooDeep(source, deepest);
  return value as Record<string, unknown>;
}

function tooDeep(source: string, at?: string): DescriptionError {
  return descriptionError(
    source,
    `nests objects and arrays more than ${MAX_DESCRIPTION_DEPTH} levels deep${at === undefined ? '' : ` (at ${at})`}`,
    `A description nests a few levels (the service's own, 10); a schema nested deeper than ${MAX_DESCRIPTION_DEPTH} is a hostile or generated document: name the repeated part once under components and $ref it.`,
  );
}

/** The yaml parser recurses per nesting level; a very deep document ends its stack, inside or outside its own error. */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && /Maximum call stack size exceeded/.test(error.message));
}

const SHOWN_SEGMENTS = 8;

/** The JSON pointer of the first value nested deeper than `limit` (an iterative walk: no recursion to exhaust), or undefined. */
function pointerBeyondDepth(root: unknown, limit: number): string | undefined {
  interface Entry {
    value: unknown;
    depth: number;
    key: string;
    parent: Entry | undefined;
  }
  const stack: Entry[] = [{ value: root, depth: 0, key: '', parent: undefined }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value, depth } = entry;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) {
      const keys: string[] = [];
      for (let at: Entry | undefined = entry; at?.parent !== undefined; at = at.parent) keys.push(at.key.replace(/~/g, '~0').replace(/\//g, '~1'));
      // The first segments say where; the other few hundred would only fill the terminal.
      const shown = keys.reverse().slice(0, SHOWN_SEGMENTS);
      return `#/${shown.join('/')}${keys.length > SHOWN_SEGMENTS ? `/… (${keys.length - SHOWN_SEGMENTS} more levels)` : ''}`;
    }
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, depth: depth + 1, key, parent: entry });
  }
  return undefined;
}

/** `line L, column C` (1-based) of an offset in a text. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
