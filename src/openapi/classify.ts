/**
 * Every operation of a description, classified per ruling 34: is it a list or search operation (page size
 * and token in the query of a GET, or in the JSON body of a POST), does it only read, and so may the harness
 * call it. The rules are the rows of the tables below; the harness never calls an operation that creates,
 * changes or deletes, whatever the description or a profile says.
 */
import { bundleSchema } from './bundle.js';
import { descriptionError, DescriptionError } from './parse.js';
import { deref, isObject, pointerSegment, type Json } from './pointer.js';
import type { BodyFieldNames, DescribedOperation, Pagination } from './types.js';

/** HTTP methods of an OpenAPI path item, in the order the list prints them. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The page field spellings a POST body may declare: the first is the real description's (protobuf's JSON name), the second service.md's. */
export const BODY_SPELLINGS: readonly BodyFieldNames[] = [
  { pageSize: 'pageSize', pageToken: 'pageToken' },
  { pageSize: 'page_size', pageToken: 'page_token' },
];

/** The query parameters of a paginated GET (service.md §4.4). */
export const QUERY_FIELDS: BodyFieldNames = { pageSize: 'page_size', pageToken: 'page_token' };

/**
 * What marks a paginated POST as a read (ruling 34: "a search, list or feed"): its operation ID's last
 * segment starts with one of these words, or its path has one of these segments.
 */
export const READING_OPERATION_ID_PREFIXES = ['Search', 'List'] as const;
export const READING_PATH_SEGMENTS = ['search'] as const;

/** Why an operation is not called, by what it is (ruling 34). Each is a sentence fragment after the operation. */
export const NOT_CALLED = {
  changes: (method: string) => `${method} creates, changes or deletes data: the harness never calls it (ruling 34)`,
  postNotSearch: 'a POST that is not a search, list or feed (no paginated body with an operation ID Search…/List… or a path under /search/): it may change data, so the harness never calls it (ruling 34)',
  postUnpaginated: 'a POST without page size and token in its JSON body: it may change data, so the harness never calls it (ruling 34)',
  getUnpaginated: 'not a list or search operation (no page_size and page_token query parameters): no per-operation check applies',
  otherMethod: (method: string) => `${method} is not an operation the checks apply to`,
} as const;

/** The array of items a list answer carries (service.md §4.4) when the description does not say otherwise. */
export const DEFAULT_LIST_PROPERTY = 'list';

export interface ClassifyOptions {
  /** Where the document came from, for errors. */
  source: string;
  /** Bundle each called operation's 200 schema (the list command needs none: skip the work). */
  withSchemas?: boolean;
}

/** All operations of `doc.paths`, in the document's order, classified; none planned yet (see plan.ts). */
export function describeOperations(doc: Json, options: ClassifyOptions): DescribedOperation[] {
  const { source } = options;
  const paths = doc.paths;
  if (paths === undefined) return [];
  if (!isObject(paths)) throw descriptionError(source, 'has a "paths" that is not an object');
  const out: DescribedOperation[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemPointer = `#/paths/${pointerSegment(path)}`;
    const item = deref(doc, rawItem, source, itemPointer);
    if (!isObject(item)) throw descriptionError(source, `has a path item that is not an object at ${itemPointer}`);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of OPERATION_METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const pointer = `${itemPointer}/${method}`;
      if (!isObject(op)) throw descriptionError(source, `has an operation that is not an object at ${pointer}`);
      out.push(describeOrLeaveOut(doc, { path, method, op, shared, pointer }, options));
    }
  }
  return out;
}

interface RawOperation {
  path: string;
  method: string;
  op: Json;
  shared: unknown[];
  pointer: string;
}

/**
 * One operation, or, where a defect of the description spoils it (a malformed or dangling $ref, a schema
 * loop, allOf nested without end), the operation left out with the defect as its reason: one bad operation
 * never blocks the rest of the document.
 */
function describeOrLeaveOut(doc: Json, raw: RawOperation, options: ClassifyOptions): DescribedOperation {
  try {
    return describeOne(doc, raw, options);
  } catch (error) {
    if (!(error instanceof DescriptionError)) throw error;
    const method = raw.method.toUpperCase();
    const operationId = typeof raw.op.operationId === 'string' ? raw.op.operationId : undefined;
    return {
      method,
      path: raw.path,
      ...(operationId === undefined ? {} : { operationId }),
      tags: [],
      paginated: false,
      called: false,
      reason: `its description cannot be used: it ${error.what}`,
      pathParams: pathParameterNames(raw.path),
    };
  }
}

function describeOne(doc: Json, raw: RawOperation, options: ClassifyOptions): DescribedOperation {
  const { source } = options;
  const method = raw.method.toUpperCase();
  const operationId = typeof raw.op.operationId === 'string' ? raw.op.operationId : undefined;
  const tags = Array.isArray(raw.op.tags) ? raw.op.tags.filter((tag): tag is string => typeof tag === 'string') : [];
  const query = queryParameterNames(doc, raw, source);
  const bodyFields = method === 'POST' ? bodyPageFields(doc, raw, source) : undefined;
  const paginated: Pagination =
    method === 'GET' && query.has(QUERY_FIELDS.pageSize) && query.has(QUERY_FIELDS.pageToken) ? 'query' : bodyFields ? 'body' : false;
  const base: DescribedOperation = {
    method,
    path: raw.path,
    ...(operationId === undefined ? {} : { operationId }),
    tags,
    paginated,
    called: false,
    pathParams: pathParameterNames(raw.path),
  };
  const reason = notCalledReason(base);
  if (reason !== undefined) return { ...base, reason };
  const response = okResponseSchema(doc, raw, source);
  return {
    ...base,
    called: true,
    ...(paginated === 'body' && bodyFields ? { bodyFields } : {}),
    ...listShape(doc, response, source, `${raw.pointer}/responses/200`),
    ...(options.withSchemas && response !== undefined ? { responseSchema: bundleSchema(doc, response, source) } : {}),
  };
}

/** Undefined when ruling 34 lets the harness call the operation; else why not. */
export function notCalledReason(op: Pick<DescribedOperation, 'method' | 'path' | 'operationId' | 'paginated'>): string | undefined {
  switch (op.method) {
    case 'GET':
      return op.paginated === 'query' ? undefined : NOT_CALLED.getUnpaginated;
    case 'POST':
      if (op.paginated !== 'body') return NOT_CALLED.postUnpaginated;
      return isReadingPost(op) ? undefined : NOT_CALLED.postNotSearch;
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
      return NOT_CALLED.changes(op.method);
    default:
      return NOT_CALLED.otherMethod(op.method);
  }
}

/** A POST named a search, list or feed (ruling 34), by its operation ID's last segment or its path. */
export function isReadingPost(op: Pick<DescribedOperation, 'path' | 'operationId'>): boolean {
  const last = op.operationId?.split('.').pop() ?? '';
  if (READING_OPERATION_ID_PREFIXES.some((prefix) => last.startsWith(prefix))) return true;
  const segments = op.path.split('/');
  return READING_PATH_SEGMENTS.some((segment) => segments.includes(segment));
}

/** `/api/v1/apps/{app_id}/entitlements` → `['app_id']`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}/]+)\}/g)].map((match) => match[1] as string);
}

function queryParameterNames(doc: Json, raw: RawOperation, source: string): Set<string> {
  const names = new Set<string>();
  const own = Array.isArray(raw.op.parameters) ? raw.op.parameters : [];
  [...raw.shared, ...own].forEach((param, index) => {
    const resolved = deref(doc, param, source, `${raw.pointer}/parameters/${index}`);
    if (isObject(resolved) && resolved.in === 'query' && typeof resolved.name === 'string') names.add(resolved.name);
  });
  return names;
}

/** The page fields the POST's JSON body declares (the first spelling found in BODY_SPELLINGS order), with the other as `alsoAccepts`. */
function bodyPageFields(doc: Json, raw: RawOperation, source: string): DescribedOperation['bodyFields'] | undefined {
  const pointer = `${raw.pointer}/requestBody`;
  const body = deref(doc, raw.op.requestBody, source, pointer);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = body.content['application/json'];
  if (!isObject(media)) return undefined;
  const properties = schemaProperties(doc, media.schema, source, `${pointer}/content/application~1json/schema`);
  const declared = BODY_SPELLINGS.find((spelling) => properties.has(spelling.pageSize) && properties.has(spelling.pageToken));
  if (declared === undefined) return undefined;
  const other = BODY_SPELLINGS.find((spelling) => spelling !== declared);
  return { ...declared, ...(other ? { alsoAccepts: { ...other } } : {}) };
}

/**
 * How many `allOf`s deep, through `$ref`s, an object's properties are looked for. Literal nesting is bounded
 * by the parser; a chain of refs is not, and 20,000 schemas each `allOf` the next would end the stack.
 */
const MAX_ALLOF_DEPTH = 64;

/** The property names of an object schema, through `$ref`s and `allOf` (bounded: a cycle is not followed twice, a chain not past MAX_ALLOF_DEPTH). */
function schemaProperties(doc: Json, schema: unknown, source: string, pointer: string, seen = new Set<unknown>(), depth = 0): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (depth > MAX_ALLOF_DEPTH) throw descriptionError(source, `nests allOf more than ${MAX_ALLOF_DEPTH} levels deep through $refs at ${pointer.length > 200 ? `${pointer.slice(0, 200)}…` : pointer}`);
  const resolved = deref(doc, schema, source, pointer);
  if (!isObject(resolved) || seen.has(resolved)) return out;
  seen.add(resolved);
  if (isObject(resolved.properties)) for (const [name, value] of Object.entries(resolved.properties)) out.set(name, value);
  if (Array.isArray(resolved.allOf)) {
    resolved.allOf.forEach((part, index) => {
      for (const [name, value] of schemaProperties(doc, part, source, `${pointer}/allOf/${index}`, seen, depth + 1)) if (!out.has(name)) out.set(name, value);
    });
  }
  return out;
}

/** The 200 answer's `application/json` schema, unresolved (a `$ref` stays one). */
function okResponseSchema(doc: Json, raw: RawOperation, source: string): unknown {
  const responses = raw.op.responses;
  if (!isObject(responses)) return undefined;
  const ok = deref(doc, responses['200'], source, `${raw.pointer}/responses/200`);
  if (!isObject(ok) || !isObject(ok.content)) return undefined;
  const media = ok.content['application/json'];
  return isObject(media) ? media.schema : undefined;
}

/**
 * The array of items (`list`, or the answer's only array property) and the item wrapper the description
 * names: items of a `…View` schema that has the property its name stands for (`AppEntitlementView` →
 * `appEntitlement`), the real description's way of wrapping an object with its related paths.
 */
function listShape(doc: Json, schema: unknown, source: string, pointer: string): Pick<DescribedOperation, 'listProperty' | 'itemWrapper'> {
  if (schema === undefined) return { listProperty: DEFAULT_LIST_PROPERTY };
  const properties = schemaProperties(doc, schema, source, pointer);
  const arrays = [...properties].filter(([, value]) => {
    const resolved = deref(doc, value, source, pointer);
    return isObject(resolved) && (resolved.type === 'array' || (Array.isArray(resolved.type) && resolved.type.includes('array')));
  });
  const list = arrays.find(([name]) => name === DEFAULT_LIST_PROPERTY) ?? (arrays.length === 1 ? arrays[0] : undefined);
  if (list === undefined) return { listProperty: DEFAULT_LIST_PROPERTY };
  const [listProperty, listSchema] = list;
  const items = (deref(doc, listSchema, source, pointer) as Json).items;
  const ref = isObject(items) && typeof items.$ref === 'string' ? items.$ref : undefined;
  const name = ref?.split('/').pop()?.split('.').pop() ?? '';
  if (!name.endsWith('View') || name.length <= 4) return { listProperty };
  const wrapper = `${name.charAt(0).toLowerCase()}${name.slice(1, -4)}`;
  return schemaProperties(doc, items, source, pointer).has(wrapper) ? { listProperty, itemWrapper: wrapper } : { listProperty };
}
