/**
 * A JSON Schema 2020-12 validator for other rooms (the OpenAPI description's response schemas): Ajv is this
 * room's library, so the one place that builds an Ajv instance for the profile builds this one too.
 * Unknown keywords (OpenAPI's `readOnly`, `example`, `discriminator`, `x-…`) are annotations, not errors.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** Checks one value; `[]` when it is valid, else up to `maxErrors` lines `<pointer>: <message>`. */
export type JsonSchemaCheck = (value: unknown, maxErrors?: number) => string[];

/** Compiles `schema` (self-contained: every `$ref` local) once; throws when it is not a schema Ajv can compile. */
export function compileJsonSchema(schema: unknown): JsonSchemaCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, logger: false });
  addFormats(ajv);
  const validate: ValidateFunction = ajv.compile(schema as object);
  return (value, maxErrors = 5) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, maxErrors).map((error) => `${error.instancePath === '' ? '(top level)' : error.instancePath}: ${error.message ?? error.keyword}${error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})` : ''}`);
  };
}
