/**
 * Schema validation of target profiles (schemas/target-profile.schema.json, draft 2020-12), with error
 * messages that say what is wrong and how to fix it. The schema is compiled once, on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { closest } from '../spelling.js';

// Both packages are CommonJS with `exports.default`; under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

export interface ProfileProblem {
  /** JSON path in dotted form, e.g. `credentials.primary.clientId` or `webhooks.jwt.signingKeys[0].alg`. */
  path: string;
  message: string;
}

export const PROFILE_SCHEMA_FILE = 'target-profile.schema.json';

/**
 * `<package root>/schemas/`: two levels up from src/profile/, three from dist/src/profile/. Walks up a few
 * levels instead of hard-coding either, so both layouts (and vitest running the sources) work.
 */
export function profileSchemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'schemas', PROFILE_SCHEMA_FILE);
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`schemas/${PROFILE_SCHEMA_FILE} not found above ${fileURLToPath(import.meta.url)}`);
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const schema = JSON.parse(readFileSync(profileSchemaPath(), 'utf8')) as object;
    // verbose: errors carry the offending subschema, used to list the allowed field names.
    // validateSchema off: the schema ships with the package and metaSchemaProblems() proves it in the tests;
    // compiling the draft 2020-12 meta-schema to check it again would cost every run some 25 ms.
    const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, validateSchema: false });
    addFormats(ajv, ['uri']);
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/** The profile schema checked against the JSON Schema 2020-12 meta-schema: [] when it is a valid schema. */
export function metaSchemaProblems(): string[] {
  const schema = JSON.parse(readFileSync(profileSchemaPath(), 'utf8')) as object;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv, ['uri']);
  if (ajv.validateSchema(schema) === true) return [];
  return (ajv.errors ?? []).map((error) => `${error.instancePath || '(top level)'} ${error.message ?? ''}`);
}

export function validateProfileDocument(raw: unknown): { ok: true } | { ok: false; errors: ProfileProblem[] } {
  const validate = validator();
  if (validate(raw)) return { ok: true };
  return { ok: false, errors: explainSchemaErrors(validate.errors ?? [], raw) };
}

/** `/a/b/0/c` → `a.b[0].c` */
export function dottedPath(pointer: string, extra?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segments.push(extra);
  let out = '';
  for (const segment of segments) out += /^\d+$/.test(segment) ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? '(top level)' : out;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

const SECRET_FORMS = 'a non-empty string or {"env": "VARIABLE_NAME"}';
const SIGNING_KEY_FORMS =
  'an array of private JWKs (each with kty, kid, alg), {"file": "keys.json"} or {"env": "VARIABLE_NAME"}';

/**
 * Turns ajv's errors into one line per mistake. `oneOf` alternatives (secrets, signing keys) produce an
 * error per branch; the branch the value was evidently meant for (object with `env`, `file`, an array...)
 * is the one reported, or a single "must be one of these forms" line.
 */
export function explainSchemaErrors(errors: ErrorObject[], raw: unknown): ProfileProblem[] {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  const problems: ProfileProblem[] = [];
  const seen = new Set<string>();
  const push = (problem: ProfileProblem): void => {
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  };
  for (const error of errors) {
    if (error.keyword === 'oneOf') continue;
    const parent = oneOfs.find((o) => error.schemaPath.startsWith(`${o.schemaPath}/`));
    if (parent !== undefined) {
      const branch = Number(error.schemaPath.slice(parent.schemaPath.length + 1).split('/')[0]);
      if (branch !== intendedBranch(valueAt(raw, parent.instancePath), parent)) continue;
    }
    push(explainOne(error));
  }
  for (const parent of oneOfs) {
    const intended = intendedBranch(valueAt(raw, parent.instancePath), parent);
    const branchReported = errors.some(
      (e) => e.keyword !== 'oneOf' && e.schemaPath.startsWith(`${parent.schemaPath}/${intended}/`),
    );
    if (intended === -1 || !branchReported) {
      const forms = parent.schemaPath.includes('signingKeys') ? SIGNING_KEY_FORMS : SECRET_FORMS;
      push({ path: dottedPath(parent.instancePath), message: `must be ${forms}` });
    }
  }
  return problems;
}

/** Index of the oneOf branch a value was meant for, by its shape; -1 when none fits. */
function intendedBranch(value: unknown, parent: ErrorObject): number {
  const isKeys = parent.schemaPath.includes('signingKeys');
  if (isKeys) {
    if (Array.isArray(value)) return 0;
    if (typeof value === 'object' && value !== null) {
      if ('file' in value) return 1;
      if ('env' in value) return 2;
    }
    return -1;
  }
  if (typeof value === 'string') return 0;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'env' in value) return 1;
  return -1;
}

function explainOne(error: ErrorObject): ProfileProblem {
  const path = dottedPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: dottedPath(error.instancePath, String(params.missingProperty)), message: 'is required but missing' };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const suggestion = closest(name, allowed);
      const hint = suggestion ? `; did you mean "${suggestion}"?` : allowed.length > 0 ? `; allowed here: ${allowed.join(', ')}` : '';
      return { path: dottedPath(error.instancePath, name), message: `is not a known field${hint}` };
    }
    case 'type':
      return { path, message: `must be ${article(String(params.type))}` };
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { path, message: `must be one of ${JSON.stringify(params.allowedValues)}` };
    case 'format':
      return params.format === 'uri'
        ? { path, message: 'must be an absolute URL like https://tenant.example.com' }
        : { path, message: `must be a valid ${String(params.format)}` };
    case 'pattern':
      return path.endsWith('.env')
        ? { path, message: 'must be an environment variable name: letters, digits and _, not starting with a digit' }
        : { path, message: `must match ${String(params.pattern)}` };
    case 'minimum':
      return { path, message: `must be at least ${String(params.limit)}` };
    case 'minLength':
      return { path, message: 'must not be empty' };
    case 'minItems':
      return { path, message: `must have at least ${String(params.limit)} item(s)` };
    default:
      return { path, message: error.message ?? `fails the schema rule "${error.keyword}"` };
  }
}

function article(type: string): string {
  const names = type.split(',').map((t) => (t === 'integer' ? 'an integer' : t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`));
  return names.join(' or ');
}

/** One message listing every problem, for a HarnessError or the console. */
export function formatProfileErrors(problems: ProfileProblem[], source?: string): string {
  const where = source ? `The target profile ${source}` : 'The target profile';
  const head = problems.length === 1 ? `${where} has a problem:` : `${where} has ${problems.length} problems:`;
  return [head, ...problems.map((p) => `  - ${p.path}: ${p.message}`)].join('\n');
}
