/**
 * One response schema made self-contained: every local `$ref` it reaches (transitively) is copied once under
 * the result's own `$defs` and the ref rewritten to point there, so a recursive schema stays a finite tree of
 * plain JSON (it travels to the suite thread and compiles in Ajv, which follows the refs itself). Only the
 * reachable schemas are copied: a task search's answer reaches 115 of the real description's 659, 124 KB.
 *
 * OpenAPI 3.0's `nullable: true`, which the real 3.1 description still writes, is not a JSON Schema
 * 2020-12 keyword; Ajv refuses it without a sibling `type`. The author's intent is clear, so the bundle
 * states it in 2020-12 terms: `type: [T, "null"]`, or `anyOf: [the schema, {type: "null"}]`.
 */
import { descriptionError } from './parse.js';
import { isObject, valueAtPointer, type Json } from './pointer.js';

/** Deeper literal nesting than this is a hostile document, not a schema. */
const MAX_SCHEMA_DEPTH = 256;
const SAFE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

export function bundleSchema(doc: Json, schema: unknown, source: string): Json {
  const defs: Json = {};
  const names = new Map<string, string>();
  const pending: Array<{ ref: string; name: string }> = [];
  const nameOf = (ref: string): string => {
    let name = names.get(ref);
    if (name === undefined) {
      const last = ref.split('/').pop() ?? '';
      name = SAFE_NAME.test(last) && ![...names.values()].includes(last) ? last : `def${names.size}`;
      names.set(ref, name);
      pending.push({ ref, name });
    }
    return name;
  };
  const copy = (node: unknown, depth: number, where: string): unknown => {
    if (depth > MAX_SCHEMA_DEPTH) throw descriptionError(source, `nests a schema more than ${MAX_SCHEMA_DEPTH} levels deep at ${where}`);
    if (Array.isArray(node)) return node.map((value, index) => copy(value, depth + 1, `${where}/${index}`));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (!value.startsWith('#')) throw descriptionError(source, `has a $ref to another document at ${where} (${JSON.stringify(value)})`);
        if (valueAtPointer(doc, value) === undefined) throw descriptionError(source, `has a $ref to nothing at ${where} (${JSON.stringify(value)})`);
        out.$ref = `#/$defs/${nameOf(value)}`;
      } else if (key === '$id' || key === '$schema' || key === 'nullable' || key.startsWith('x-')) {
        // $id/$schema would re-base the refs; nullable is restated below; extensions are not schema.
      } else {
        out[key] = copy(value, depth + 1, `${where}/${key}`);
      }
    }
    return node.nullable === true ? withNull(out) : out;
  };
  const root = copy(schema, 0, '(response schema)') as Json;
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    defs[next.name] = copy(valueAtPointer(doc, next.ref), 0, next.ref);
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

function withNull(schema: Json): Json {
  if (typeof schema.type === 'string' && schema.$ref === undefined && schema.allOf === undefined && schema.anyOf === undefined && schema.oneOf === undefined) {
    const enumValues = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [schema.type, 'null'], ...enumValues };
  }
  return { anyOf: [schema, { type: 'null' }] };
}
