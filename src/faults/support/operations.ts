/**
 * Faults of the list and search operations beside the app entitlements (ruling 34): a search whose JSON
 * body a fault rewrites before the reference reads it, or whose page a fault rewrites after. The reference
 * still routes, authenticates and pages; the wrapper changes one rule.
 */
import { randomBytes } from 'node:crypto';
import { sha256Base64Url } from '../../crypto/encoding.js';
import type { ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import type { FaultEnv } from '../types.js';
import { isObject, readJson, withJsonBody } from './http.js';

/** Requests to a search operation (`POST /api/v1/search/...`). */
export function isSearch(request: ReferenceRequest): boolean {
  return request.method === 'POST' && request.url.split('?')[0]!.startsWith('/api/v1/search/');
}

/** The search body as a JSON object, or undefined when it is none (the reference then answers 400 itself). */
export function searchBodyOf(request: ReferenceRequest): Record<string, unknown> | undefined {
  const text = request.body.toString('utf8').trim();
  if (text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The request with its JSON body changed by `edit` (left alone when the body is not a JSON object). */
export function withSearchBody(request: ReferenceRequest, edit: (body: Record<string, unknown>, query: URLSearchParams) => void): ReferenceRequest {
  const body = searchBodyOf(request);
  if (body === undefined) return request;
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  edit(body, query);
  return { ...request, body: Buffer.from(JSON.stringify(body)) };
}

/** A 200 page's `{list, nextPageToken}` changed by `edit`; any other answer passes unchanged. */
export function withPage(response: ReferenceResponse, edit: (page: { list: unknown[]; nextPageToken?: unknown } & Record<string, unknown>) => void): ReferenceResponse {
  if (response.status !== 200) return response;
  const page = readJson(response);
  if (!isObject(page) || !Array.isArray(page.list)) return response;
  edit(page as { list: unknown[] } & Record<string, unknown>);
  return withJsonBody(response, page);
}

/**
 * A valid access token of the primary credential that the fault itself holds, stored as the reference stores
 * its own and valid far beyond any clock the run moves to: a fault puts it on requests it lets through.
 */
export function faultToken(env: FaultEnv): () => string {
  let own: string | undefined;
  return () => {
    if (own === undefined) {
      own = randomBytes(32).toString('base64url');
      const { tokenStore, clock } = env.ports();
      const now = clock.now();
      tokenStore.put(sha256Base64Url(own), { clientId: env.tenant.credentials.primary.clientId, expiresAt: now + 100 * 365 * 86_400 }, now);
    }
    return own;
  };
}
