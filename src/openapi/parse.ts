/**
 * The text of a description → a plain JSON value. JSON (first character `{`) goes through JSON.parse, ten
 * times faster than a YAML parser on a 1 MB document; anything else through `yaml` (eemeli's, YAML 1.2, of
 * which JSON is a subset), whose errors carry a line and column and which refuses duplicate keys and caps
 * alias expansion (a "billion laughs" document is refused, not expanded).
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { HarnessError } from '../errors.js';
import { jsonErrorLocation } from '../profile/index.js';

/** Alias nodes a document may expand; the real description has none. */
const MAX_ALIAS_COUNT = 1000;

export function descriptionError(source: string, what: string, hint = 'Give the service\'s OpenAPI 3.1 description (YAML or JSON), as published.'): HarnessError {
  return new HarnessError('OPENAPI_INVALID', `The OpenAPI description ${source} ${what}.`, { hint });
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
  } else {
    try {
      value = parseYaml(body, { maxAliasCount: MAX_ALIAS_COUNT, uniqueKeys: true, prettyErrors: true, merge: false });
    } catch (error) {
      if (error instanceof YAMLParseError) {
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
  return value as Record<string, unknown>;
}
