/**
 * Request and response plumbing for fault wrappers: which route a request is for, reading and replacing
 * headers, JSON bodies and query parameters. Nothing here decides anything; the faults do.
 */
import { errorResponse, json, parseTarget } from '../../reference/http.js';
import type { ReferenceHandler, ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import { WEBHOOK_PATH_PREFIX } from '../../reference/webhooks.js';
import type { Tenant, TenantHmacListener, TenantJwtListener } from '../../tenant/types.js';

export { errorResponse, json };

export type Route =
  | { kind: 'token' }
  | { kind: 'api'; appId: string; operation: string; query: URLSearchParams }
  | { kind: 'webhook'; listenerId: string }
  | { kind: 'other' };

export function routeOf(request: ReferenceRequest): Route {
  const target = parseTarget(request.url);
  if (target === undefined) return { kind: 'other' };
  const path = `/${target.segments.join('/')}`;
  if (path === '/auth/v1/token') return { kind: 'token' };
  const [first, second, third, appId, operation, ...rest] = target.segments;
  if (first === 'api' && second === 'v1' && third === 'apps' && appId && operation && rest.length === 0) {
    return { kind: 'api', appId: decodeURIComponent(appId), operation, query: target.query };
  }
  if (path.startsWith(WEBHOOK_PATH_PREFIX) && request.method === 'POST') {
    const id = path.slice(WEBHOOK_PATH_PREFIX.length);
    if (id !== '' && !id.includes('/')) return { kind: 'webhook', listenerId: decodeURIComponent(id) };
  }
  return { kind: 'other' };
}

/** The listener behind a webhook route, with its method; undefined for an unknown listener. */
export type KnownListener = { method: 'HMAC'; listener: TenantHmacListener } | { method: 'JWT'; listener: TenantJwtListener };

export function listenerOf(tenant: Tenant, listenerId: string): KnownListener | undefined {
  for (const listener of Object.values(tenant.listeners)) {
    if (listener.listenerId !== listenerId) continue;
    return listener.config.method === 'HMAC'
      ? { method: 'HMAC', listener: listener as TenantHmacListener }
      : { method: 'JWT', listener: listener as TenantJwtListener };
  }
  return undefined;
}

/** The listener's full URL: the `aud` of its JWTs. */
export function listenerUrl(tenant: Tenant, listenerId: string): string {
  return `${tenant.baseUrl}${WEBHOOK_PATH_PREFIX}${encodeURIComponent(listenerId)}`;
}

export function header(request: ReferenceRequest, name: string): string | undefined {
  return request.headers[name.toLowerCase()];
}

/** A copy of the request with headers set (string) or removed (null). */
export function withHeaders(request: ReferenceRequest, changes: Record<string, string | null>): ReferenceRequest {
  const headers = { ...request.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  return { ...request, headers };
}

/** A copy of the request with its query parameters rewritten by `edit` (path unchanged). */
export function withQuery(request: ReferenceRequest, edit: (query: URLSearchParams) => void): ReferenceRequest {
  const question = request.url.indexOf('?');
  const path = question >= 0 ? request.url.slice(0, question) : request.url;
  const query = new URLSearchParams(question >= 0 ? request.url.slice(question + 1) : '');
  edit(query);
  const text = query.toString();
  return { ...request, url: text === '' ? path : `${path}?${text}` };
}

export function bodyText(response: ReferenceResponse): string {
  return typeof response.body === 'string' ? response.body : response.body.toString('utf8');
}

/** The response body as JSON, or undefined when it is not JSON. */
export function readJson(response: ReferenceResponse): unknown {
  try {
    return JSON.parse(bodyText(response));
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The same response with a new JSON body (headers kept, status optionally replaced). */
export function withJsonBody(response: ReferenceResponse, body: unknown, status = response.status): ReferenceResponse {
  return { status, headers: { ...response.headers }, body: JSON.stringify(body) };
}

/** The same response with headers set (string) or removed (null). */
export function withResponseHeaders(response: ReferenceResponse, changes: Record<string, string | null>): ReferenceResponse {
  const headers = { ...response.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return { ...response, headers };
}

/**
 * A handler that applies `rewrite` to the answers of one kind of route and passes everything else through.
 * The most common fault shape: the service is right except in what it answers on one route.
 */
export function onRoute(
  kind: Route['kind'],
  handler: ReferenceHandler,
  rewrite: (request: ReferenceRequest, route: Route, next: ReferenceHandler) => Promise<ReferenceResponse>,
): (request: ReferenceRequest) => Promise<ReferenceResponse> {
  return async (request) => {
    const route = routeOf(request);
    return route.kind === kind ? rewrite(request, route, handler) : handler(request);
  };
}

/** The `error` member of a JSON error body, when there is one. */
export function errorCode(response: ReferenceResponse): string | undefined {
  const body = readJson(response);
  return isObject(body) && typeof body.error === 'string' ? body.error : undefined;
}

/** The value of `Authorization: Bearer <value>`, when the header has that form. */
export function bearerToken(request: ReferenceRequest): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
  return match ? match[1] : undefined;
}
