/**
 * An answer checked against its operation's 200 schema (SHOULD, ruling 34): the first few schema errors, or
 * none. Each schema compiles once per thread (Ajv, through the profile room that owns it).
 */
import { compileJsonSchema, type JsonSchemaCheck } from '../profile/index.js';
import { descriptionError } from './parse.js';
import type { DescribedOperation } from './types.js';

/** Schema errors reported per answer: the first few say what is wrong; the rest is noise. */
export const MAX_SCHEMA_ERRORS = 5;

const compiled = new WeakMap<object, JsonSchemaCheck>();

/**
 * `[]` when the answer fits the description (or the operation has no 200 schema, or the status is not 200);
 * else up to MAX_SCHEMA_ERRORS lines `<JSON pointer>: <what is wrong>`. A schema Ajv cannot compile is the
 * description's fault, a HarnessError (OPENAPI_INVALID) naming the operation.
 */
export function validateResponse(op: Pick<DescribedOperation, 'method' | 'path' | 'responseSchema'>, status: number, body: unknown): string[] {
  const schema = op.responseSchema;
  if (status !== 200 || typeof schema !== 'object' || schema === null) return [];
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = compileJsonSchema(schema);
    } catch (error) {
      throw descriptionError('(loaded for this run)', `has a 200 schema for ${op.method} ${op.path} that cannot be compiled: ${error instanceof Error ? error.message : String(error)}`);
    }
    compiled.set(schema, check);
  }
  return check(body, MAX_SCHEMA_ERRORS);
}
