/**
 * The shape of every description fault: the reference is right except in the OpenAPI description it serves
 * at OPENAPI_PATH, which the fault edits as JSON on the way out. (The sandbox's profile names that URL, so
 * the run reads the served document, edited.)
 */
import { OPENAPI_PATH } from '../../reference/openapi-document.js';
import type { ReferenceHandler } from '../../reference/types.js';
import { isObject, readJson, withJsonBody } from './http.js';

export type DescriptionEdit = (doc: Record<string, unknown>) => Record<string, unknown>;

export function servedDescription(handler: ReferenceHandler, edit: DescriptionEdit): ReferenceHandler {
  return async (request) => {
    const response = await handler(request);
    if (request.method !== 'GET' || request.url.split('?')[0] !== OPENAPI_PATH || response.status !== 200) return response;
    const doc = readJson(response);
    return isObject(doc) ? withJsonBody(response, edit(structuredClone(doc))) : response;
  };
}

/** The object at `path` under `doc` (created nowhere: undefined when a step is missing). */
export function objectAt(doc: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let value: unknown = doc;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return isObject(value) ? value : undefined;
}
