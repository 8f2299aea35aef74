/**
 * Every operation of a description, classified per rulings 34 and 35: is it a list or search operation
 * (page size and token in the query of a GET, or in the JSON body of a POST), does it only read, and so may
 * the harness call it. A description is not trusted to say what is safe (ruling 35): the path must keep its
 * shape (path-shape.ts), a POST must be named a search or list in whole words (read-rules.ts), and when in
 * doubt the operation is not called, saying why and how the user can name it to call it anyway.
 */
import { fillRequiredBody, objectSchema, type ObjectSchema } from './body-fill.js';
import { bundleSchema } from './bundle.js';
import { descriptionError, DescriptionError } from './parse.js';
import { pathParameterNames, templateShapeProblem } from './path-shape.js';
import { deref, isObject, pointerSegment, type Json } from './pointer.js';
import { readingPostVerdict } from './read-rules.js';
import type { BodyFieldNames, DescribedOperation, Pagination } from './types.js';

export { pathParameterNames } from './path-shape.js';

/** HTTP methods of an OpenAPI path item, in the order the list prints them. */
export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The page field spellings a POST body may declare: the first is the real description's (protobuf's JSON name), the second service.md's. */
export const BODY_SPELLINGS: readonly BodyFieldNames[] = [
  { pageSize: 'pageSize', pageToken: 'pageToken' },
  { pageSize: 'page_size', pageToken: 'page_token' },
];

/** The query parameters of a paginated GET (service.md §4.4). */
export const QUERY_FIELDS: BodyFieldNames = { pageSize: 'page_size', pageToken: 'page_token' };

/** The run flag by which the user names an operation to call that the rules leave in doubt (ruling 35). */
export const OPT_IN_FLAG = '--allow-operation';

/**
 * Parameters that make a request act as another method on common stacks (Rails, Laravel, Express's
 * method-override, Google's `X-HTTP-Method-Override`): an operation declaring one is not called.
 */
export const METHOD_OVERRIDE_PARAMETERS: readonly string[] = ['x-http-method-override', 'x-http-method', 'x-method-override', '_method'];

/** Why an operation is not called, by what it is (rulings 34, 35). Each is a sentence fragment after the operation. */
export const NOT_CALLED = {
  changes: (method: string) => `${method} creates, changes or deletes data: the harness never calls it (ruling 34)`,
  postNotRead: (why: string) => `a paginated POST that is not named a search or list (${why}): it may change data, so the harness does not call it (ruling 35)`,
  postUnpaginated: 'a POST without page size and token in its JSON body: it may change data, so the harness never calls it (ruling 34)',
  getUnpaginated: 'not a list or search operation (no page_size and page_token query parameters): no per-operation check applies',
  otherMethod: (method: string) => `${method} is not an operation the checks apply to`,
  shape: (problem: string) => `${problem}: the harness never sends a request whose path differs from the template's shape (ruling 35)`,
  methodOverride: (name: string, where: string) => `it declares a method-override parameter ${JSON.stringify(name)} (in ${where}): a request to it may act as another method, so the harness does not call it (ruling 35)`,
} as const;

/** How the user calls an operation the rules leave in doubt: the flag and the operation's name, quoted for a shell. */
export function optInHint(op: { method: string; path: string }): string {
  const name = `${op.method.toUpperCase()} ${op.path}`;
  return /^[A-Za-z0-9/_.{}:~ -]+$/.test(name)
    ? `to call it anyway, name it yourself: run ${OPT_IN_FLAG} '${name}'`
    : `to call it anyway, name it yourself: run ${OPT_IN_FLAG} with its method and path as listed`;
}

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
  const parameters = declaredParameters(doc, raw, source);
  const query = new Set(parameters.filter((param) => param.in === 'query').map((param) => param.name));
  const body = method === 'POST' ? requestBodySchema(doc, raw, source) : undefined;
  // The body's properties and required names, read once: the page fields, the overrides and the filling use them.
  const bodyShape = body === undefined ? undefined : objectSchema(doc, body.schema, source, body.pointer);
  const bodyFields = bodyPageFields(bodyShape);
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
  const bodyNames = [...(bodyShape?.properties.keys() ?? [])].map((name) => ({ name, in: 'the JSON body' }));
  const override = [...parameters, ...bodyNames].find((param) => METHOD_OVERRIDE_PARAMETERS.includes(param.name.toLowerCase()));
  if (override) return { ...base, reason: NOT_CALLED.methodOverride(override.name, override.in), vetoed: true };
  const verdict = callVerdict(base);
  if (!verdict.called && !verdict.optIn) return { ...base, reason: verdict.reason };
  const response = okResponseSchema(doc, raw, source);
  return {
    ...base,
    ...(verdict.called ? { called: true } : { reason: verdict.reason, optIn: true }),
    ...(paginated === 'body' && bodyFields ? { bodyFields, requiredBody: fillRequiredBody(doc, body?.schema, source, body?.pointer ?? raw.pointer, pageFieldNames(bodyFields), bodyShape) } : {}),
    ...listShape(doc, response, source, `${raw.pointer}/responses/200/content/application~1json/schema`),
    ...(options.withSchemas && response !== undefined ? { responseSchema: bundleSchema(doc, response, source) } : {}),
  };
}

/** Whether rulings 34 and 35 let the harness call the operation; when not, why, and whether the user may name it to (a doubt, not a change). */
export type CallVerdict = { called: true } | { called: false; reason: string; optIn?: true };

export function callVerdict(op: Pick<DescribedOperation, 'method' | 'path' | 'operationId' | 'paginated'>): CallVerdict {
  const shape = templateShapeProblem(op.path);
  if (shape !== undefined) return { called: false, reason: NOT_CALLED.shape(shape) };
  switch (op.method) {
    case 'GET':
      return op.paginated === 'query' ? { called: true } : { called: false, reason: NOT_CALLED.getUnpaginated };
    case 'POST': {
      if (op.paginated !== 'body') return { called: false, reason: NOT_CALLED.postUnpaginated };
      const verdict = readingPostVerdict(op);
      if (verdict.read) return { called: true };
      return verdict.doubt
        ? { called: false, reason: `${NOT_CALLED.postNotRead(verdict.why)}; ${optInHint(op)}`, optIn: true }
        : { called: false, reason: NOT_CALLED.postNotRead(verdict.why) };
    }
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
      return { called: false, reason: NOT_CALLED.changes(op.method) };
    default:
      return { called: false, reason: NOT_CALLED.otherMethod(op.method) };
  }
}

/** Undefined when rulings 34 and 35 let the harness call the operation; else why not. */
export function notCalledReason(op: Pick<DescribedOperation, 'method' | 'path' | 'operationId' | 'paginated'>): string | undefined {
  const verdict = callVerdict(op);
  return verdict.called ? undefined : verdict.reason;
}

/** A POST named a search or list (ruling 35), by its operation ID's whole words or, without one, its path. */
export function isReadingPost(op: Pick<DescribedOperation, 'path' | 'operationId'>): boolean {
  return readingPostVerdict(op).read;
}

interface DeclaredParameter {
  name: string;
  in: string;
}

/** The operation's parameters (the path item's and its own, through `$ref`s) with a name and a place. */
function declaredParameters(doc: Json, raw: RawOperation, source: string): DeclaredParameter[] {
  const out: DeclaredParameter[] = [];
  const own = Array.isArray(raw.op.parameters) ? raw.op.parameters : [];
  [...raw.shared, ...own].forEach((param, index) => {
    const resolved = deref(doc, param, source, `${raw.pointer}/parameters/${index}`);
    if (isObject(resolved) && typeof resolved.in === 'string' && typeof resolved.name === 'string') out.push({ name: resolved.name, in: resolved.in });
  });
  return out;
}

/** The POST's `application/json` request body schema and its pointer, unresolved. */
function requestBodySchema(doc: Json, raw: RawOperation, source: string): { schema: unknown; pointer: string } | undefined {
  const pointer = `${raw.pointer}/requestBody`;
  const body = deref(doc, raw.op.requestBody, source, pointer);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = body.content['application/json'];
  if (!isObject(media)) return undefined;
  return { schema: media.schema, pointer: `${pointer}/content/application~1json/schema` };
}

/** The page fields the POST's JSON body declares (the first spelling found in BODY_SPELLINGS order), with the other as `alsoAccepts`. */
function bodyPageFields(shape: ObjectSchema | undefined): DescribedOperation['bodyFields'] | undefined {
  if (shape === undefined) return undefined;
  const { properties } = shape;
  const declared = BODY_SPELLINGS.find((spelling) => properties.has(spelling.pageSize) && properties.has(spelling.pageToken));
  if (declared === undefined) return undefined;
  const other = BODY_SPELLINGS.find((spelling) => spelling !== declared);
  return { ...declared, ...(other ? { alsoAccepts: { ...other } } : {}) };
}

/** The property names of an object schema, through `$ref`s and `allOf` (bounded: a cycle is not followed twice, allOf at most MAX_ALLOF_DEPTH deep). */
function schemaProperties(doc: Json, schema: unknown, source: string, pointer: string): Map<string, unknown> {
  return objectSchema(doc, schema, source, pointer).properties;
}

/** Every page field spelling of a body (the declared one and the other), which the checks set themselves. */
function pageFieldNames(fields: NonNullable<DescribedOperation['bodyFields']>): string[] {
  return [fields.pageSize, fields.pageToken, ...(fields.alsoAccepts ? [fields.alsoAccepts.pageSize, fields.alsoAccepts.pageToken] : [])];
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
