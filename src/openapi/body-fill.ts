/**
 * A search's required body fields (ruling 35): "Required request-body fields are part of the description:
 * the harness fills them from the schema (`example`, `default`, `enum`, `const`) or the profile, and does
 * not call an operation whose required fields it cannot fill." A target's 400 to a body the harness built
 * without a required field would be the harness's fault, so such an operation is left out, saying which
 * field and how to give it (the profile's `"operations"` entry `body`).
 */
import { descriptionError } from './parse.js';
import { deref, isObject, type Json } from './pointer.js';

/** Nesting of required objects filled in turn (`filter.kind`): deeper is not a search body. */
const MAX_FILL_DEPTH = 8;
/** `allOf` nesting followed to find properties and required names. */
export const MAX_ALLOF_DEPTH = 64;
/** A filled body larger than this (bytes of JSON) is not sent: a description's example is data, not a payload. */
export const MAX_FILLED_BODY_BYTES = 16 * 1024;

/** Where a required field's value comes from, as a report says it. */
export type FillSource = 'const' | 'example' | 'default' | 'enum' | 'object';

export interface RequiredBody {
  /** The required fields filled from the schema (page fields excluded: the checks set them). */
  filled: Record<string, unknown>;
  /** Field → where its value came from (`const`, `example`, …); `object` when built from its own required fields. */
  from: Record<string, FillSource>;
  /** Required fields the schema gives no value for (dotted for nested ones: `filter.kind`). */
  missing: string[];
}

export interface ObjectSchema {
  properties: Map<string, unknown>;
  required: Set<string>;
}

/** Properties and required names of an object schema, through `$ref`s and `allOf` (bounded; a cycle is not followed twice). */
export function objectSchema(doc: Json, schema: unknown, source: string, pointer: string, seen = new Set<unknown>(), depth = 0): ObjectSchema {
  const out: ObjectSchema = { properties: new Map(), required: new Set() };
  if (depth > MAX_ALLOF_DEPTH) throw descriptionError(source, `nests allOf more than ${MAX_ALLOF_DEPTH} levels deep at ${pointer}`);
  const resolved = deref(doc, schema, source, pointer);
  if (!isObject(resolved) || seen.has(resolved)) return out;
  seen.add(resolved);
  if (isObject(resolved.properties)) for (const [name, value] of Object.entries(resolved.properties)) out.properties.set(name, value);
  if (Array.isArray(resolved.required)) for (const name of resolved.required) if (typeof name === 'string') out.required.add(name);
  if (Array.isArray(resolved.allOf)) {
    resolved.allOf.forEach((part, index) => {
      const inner = objectSchema(doc, part, source, `${pointer}/allOf/${index}`, seen, depth + 1);
      for (const [name, value] of inner.properties) if (!out.properties.has(name)) out.properties.set(name, value);
      for (const name of inner.required) out.required.add(name);
    });
  }
  return out;
}

/** The required fields of a body schema filled from the schema, except `skip` (the page fields). */
export function fillRequiredBody(doc: Json, schema: unknown, source: string, pointer: string, skip: readonly string[], known?: ObjectSchema): RequiredBody {
  const result: RequiredBody = { filled: {}, from: {}, missing: [] };
  const shape = known ?? objectSchema(doc, schema, source, pointer);
  for (const name of shape.required) {
    if (skip.includes(name)) continue;
    const value = fillValue(doc, shape.properties.get(name), source, `${pointer}/properties/${name}`, 0);
    if (value.missing.length > 0) {
      result.missing.push(...value.missing.map((inner) => (inner === '' ? name : `${name}.${inner}`)));
    } else {
      result.filled[name] = value.value;
      result.from[name] = value.from!;
    }
  }
  if (result.missing.length === 0 && JSON.stringify(result.filled).length > MAX_FILLED_BODY_BYTES) {
    return { filled: {}, from: {}, missing: [`(the values the description gives its required fields take more than ${MAX_FILLED_BODY_BYTES} bytes)`] };
  }
  return result;
}

interface Filled {
  value?: unknown;
  from?: FillSource;
  /** '' for the field itself; dotted names of nested required fields. */
  missing: string[];
}

function fillValue(doc: Json, schema: unknown, source: string, pointer: string, depth: number): Filled {
  if (schema === undefined) return { missing: [''] };
  const resolved = deref(doc, schema, source, pointer);
  if (!isObject(resolved)) return { missing: [''] };
  if (Object.hasOwn(resolved, 'const')) return { value: resolved.const, from: 'const', missing: [] };
  if (Object.hasOwn(resolved, 'example')) return { value: resolved.example, from: 'example', missing: [] };
  if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return { value: resolved.examples[0], from: 'example', missing: [] };
  if (Object.hasOwn(resolved, 'default')) return { value: resolved.default, from: 'default', missing: [] };
  if (Array.isArray(resolved.enum) && resolved.enum.length > 0) return { value: resolved.enum[0], from: 'enum', missing: [] };
  // A required object is filled from its own required fields (none: `{}`), as deep as a search body goes.
  const isObjectType = resolved.type === 'object' || (resolved.type === undefined && (isObject(resolved.properties) || Array.isArray(resolved.allOf)));
  if (isObjectType && depth < MAX_FILL_DEPTH) {
    const shape = objectSchema(doc, resolved, source, pointer);
    const value: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const name of shape.required) {
      const inner = fillValue(doc, shape.properties.get(name), source, `${pointer}/properties/${name}`, depth + 1);
      if (inner.missing.length > 0) missing.push(...inner.missing.map((rest) => (rest === '' ? name : `${name}.${rest}`)));
      else value[name] = inner.value;
    }
    return missing.length > 0 ? { missing } : { value, from: 'object', missing: [] };
  }
  return { missing: [''] };
}
