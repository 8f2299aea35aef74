/**
 * Loading a description: a file (bounded read) or a URL (through the fetch the caller gives: this room has
 * no HTTP of its own, the client's carries the run's timeout, size cap and TLS settings), parsed, checked to
 * be an OpenAPI 3 document, its operations classified and its facts read.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { HarnessError } from '../errors.js';
import { FileRefused, readBoundedFile } from '../profile/index.js';
import { describeOperations } from './classify.js';
import { descriptionFacts } from './facts.js';
import { descriptionError, parseDescriptionText } from './parse.js';
import { isObject, type Json } from './pointer.js';
import type { DescribedOperation, DescriptionFacts } from './types.js';

/** A description file larger than this is not one (the real one is 1.07 MB). */
export const MAX_DESCRIPTION_FILE_BYTES = 16 * 1024 * 1024;

export interface LoadedDescription {
  source: string;
  document: Json;
  operations: DescribedOperation[];
  facts: DescriptionFacts;
}

export interface LoadDescriptionOptions {
  /** Base of a relative file path (the profile's folder); default the current directory. */
  baseDir?: string;
  /** Fetches a URL's text; required for a URL source (the client's `fetchDescription`). */
  fetchText?: (url: string) => Promise<string>;
  /** Bundle the called operations' response schemas (a run needs them; `list` does not). Default true. */
  withSchemas?: boolean;
}

export function isUrlSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A URL without its userinfo, query and fragment (which may hold credentials): how a source is shown. */
export function displaySource(source: string): string {
  if (!isUrlSource(source)) return source;
  try {
    const url = new URL(source);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '(an unparseable URL)';
  }
}

export async function loadDescription(source: string, options: LoadDescriptionOptions = {}): Promise<LoadedDescription> {
  const shown = isUrlSource(source) ? displaySource(source) : resolve(options.baseDir ?? '.', source);
  const text = isUrlSource(source) ? await fetchSource(source, shown, options) : await readSource(shown);
  return describeText(text, shown, options.withSchemas ?? true);
}

/** Parses and classifies a description's text (the part of loading after the bytes are in). */
export function describeText(text: string, source: string, withSchemas = true): LoadedDescription {
  const document = parseDescriptionText(text, source);
  checkShape(document, source);
  const operations = describeOperations(document, { source, withSchemas });
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  return { source, document, operations, facts: { ...descriptionFacts(document, source, operations), sha256 } };
}

function checkShape(doc: Json, source: string): void {
  if (doc.swagger !== undefined) throw descriptionError(source, `is Swagger ${String(doc.swagger)}, not OpenAPI 3`, 'Convert it to OpenAPI 3.1, or give the service\'s own 3.1 description.');
  if (typeof doc.openapi !== 'string') throw descriptionError(source, doc.openapi === undefined ? 'has no "openapi" field (the OpenAPI version)' : 'has an "openapi" field that is not a string (write it quoted, e.g. "3.1.0")');
  if (!/^3\.\d+/.test(doc.openapi)) throw descriptionError(source, `says "openapi": ${JSON.stringify(doc.openapi)}; the harness reads OpenAPI 3 descriptions`);
  if (doc.paths !== undefined && !isObject(doc.paths)) throw descriptionError(source, 'has a "paths" that is not an object');
}

async function readSource(path: string): Promise<string> {
  try {
    return await readBoundedFile(path, { maxBytes: MAX_DESCRIPTION_FILE_BYTES, what: 'an OpenAPI description' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = error instanceof FileRefused ? error.message : code === 'ENOENT' || code === 'ENOTDIR' ? 'there is no such file' : `it cannot be read (${code ?? String(error)})`;
    throw new HarnessError('OPENAPI_UNREADABLE', `The OpenAPI description ${path} cannot be read: ${why}.`, {
      hint: 'Give --openapi (or the profile\'s "openapi") a YAML or JSON file, relative to the profile\'s folder in a profile, or an http(s) URL.',
      cause: error,
    });
  }
}

async function fetchSource(url: string, shown: string, options: LoadDescriptionOptions): Promise<string> {
  if (options.fetchText === undefined) throw new HarnessError('INTERNAL', `no fetch was given to load the OpenAPI description ${shown}`);
  try {
    return await options.fetchText(url);
  } catch (error) {
    if (error instanceof HarnessError) {
      throw new HarnessError(error.code, `The OpenAPI description ${shown} cannot be fetched: ${error.message}`, {
        hint: error.code === 'RESPONSE_TOO_LARGE' ? `A description may have at most ${MAX_DESCRIPTION_FILE_BYTES / 1024 / 1024} MB; give a smaller one as a file.` : (error.hint ?? 'Check the URL, or give the description as a file.'),
        cause: error,
      });
    }
    throw error;
  }
}
