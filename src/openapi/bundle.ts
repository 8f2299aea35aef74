/**
 * One response schema made self-contained: every local `$ref` it reaches (transitively) is copied once under
 * the result's own `$defs` and the ref rewritten to point there, so a recursive schema stays a finite tree of
 * plain JSON (it travels to the suite thread and compiles in Ajv, which follows the refs itself). Only the
 * reachable schemas are copied: a task search's answer reaches 115 of the real description's 659, 124 KB.
 *
 * A schema that applies itself without looking deeper into the answer (`A: {allOf: [{$ref: B}]}`,
 * `B: {anyOf: [{$ref: A}]}`) is a defect: a validator would recurse without end on any answer. It is found
 * here, naming the refs of the loop, so the operation is left out before any request rather than its
 * schema check erroring after every request was sent.
 *
 * OpenAPI 3.0's `nullable: true`, which the real 3.1 description still writes, is not a JSON Schema
 * 2020-12 keyword; Ajv refuses it without a sibling `type`. The author's intent is clear, so the bundle
 * states it in 2020-12 terms: `type: [T, "null"]`, or `anyOf: [the schema, {type: "null"}]`.
 */
import { descriptionError } from './parse.js';
import { isObject, valueAtPointer, type Json } from './pointer.js';

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
  // Recursion is bounded: the parser refused any document nesting deeper than MAX_DESCRIPTION_DEPTH.
  const copy = (node: unknown, where: string): unknown => {
    if (Array.isArray(node)) return node.map((value, index) => copy(value, `${where}/${index}`));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        if (!value.startsWith('#')) throw descriptionError(source, `has a $ref to another document at ${where} (${JSON.stringify(value)})`);
        if (valueAtPointer(doc, value, source, where) === undefined) throw descriptionError(source, `has a $ref to nothing at ${where} (${JSON.stringify(value)})`);
        out.$ref = `#/$defs/${nameOf(value)}`;
      } else if (key === '$id' || key === '$schema' || key === 'nullable' || key.startsWith('x-')) {
        // $id/$schema would re-base the refs; nullable is restated below; extensions are not schema.
      } else {
        out[key] = copy(value, `${where}/${key}`);
      }
    }
    return node.nullable === true ? withNull(out) : out;
  };
  const root = copy(schema, '(response schema)') as Json;
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    defs[next.name] = copy(valueAtPointer(doc, next.ref, source, next.ref), next.ref);
  }
  const loop = inPlaceLoop(root, defs);
  if (loop !== undefined) {
    const refOf = new Map([...names].map(([ref, name]) => [name, ref]));
    const shown = loop.map((name) => refOf.get(name) ?? name).join(' → ');
    throw descriptionError(source, `has a schema that applies itself without end (${shown}): a validator would never finish`);
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

/** Keywords that apply their schemas to the same value (JSON Schema 2020-12 §10.2 and `$ref`); every other keyword looks deeper. */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;

/** The `$defs` names a schema reaches without descending into the value: `#/$defs/X` refs at in-place positions. */
function inPlaceRefs(node: unknown, out: string[] = []): string[] {
  if (!isObject(node)) return out;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/$defs/')) out.push(node.$ref.slice('#/$defs/'.length));
  for (const key of IN_PLACE_LISTS) if (Array.isArray(node[key])) for (const part of node[key]) inPlaceRefs(part, out);
  for (const key of IN_PLACE_ONE) inPlaceRefs(node[key], out);
  if (isObject(node.dependentSchemas)) for (const part of Object.values(node.dependentSchemas)) inPlaceRefs(part, out);
  return out;
}

/** A loop of defs that reach each other in place (names, the first repeated at the end), or undefined. */
function inPlaceLoop(root: Json, defs: Json): string[] | undefined {
  const edges = new Map<string, string[]>();
  const next = (name: string): string[] => {
    let found = edges.get(name);
    if (found === undefined) {
      found = Object.hasOwn(defs, name) ? inPlaceRefs(defs[name]) : [];
      edges.set(name, found);
    }
    return found;
  };
  // Iterative depth-first search with colours: on the path (grey) or finished (black).
  const state = new Map<string, 'grey' | 'black'>();
  for (const start of inPlaceRefs(root)) {
    if (state.has(start)) continue;
    const path: Array<{ name: string; children: string[]; index: number }> = [{ name: start, children: next(start), index: 0 }];
    state.set(start, 'grey');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const child = top.children[top.index];
      top.index += 1;
      if (child === undefined) {
        state.set(top.name, 'black');
        path.pop();
      } else if (state.get(child) === 'grey') {
        const from = path.findIndex((entry) => entry.name === child);
        return [...path.slice(from).map((entry) => entry.name), child];
      } else if (!state.has(child)) {
        state.set(child, 'grey');
        path.push({ name: child, children: next(child), index: 0 });
      }
    }
  }
  return undefined;
}

function withNull(schema: Json): Json {
  if (typeof schema.type === 'string' && schema.$ref === undefined && schema.allOf === undefined && schema.anyOf === undefined && schema.oneOf === undefined) {
    const enumValues = Array.isArray(schema.enum) && !schema.enum.includes(null) ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [schema.type, 'null'], ...enumValues };
  }
  return { anyOf: [schema, { type: 'null' }] };
}
