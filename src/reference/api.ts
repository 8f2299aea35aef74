/**
 * The resource API under `/api/v1` (service.md §4.2, §4.4, §5.1; rulings 6, 8–12, 34): bearer authentication
 * and the app operations (the app list, an app's owners and entitlements). Order: unknown route → 404,
 * wrong method → 405, then authentication (401), then the app (404), then the parameters (400).
 */
import { sha256Url, type CredentialEntry } from './credentials.js';
import { decodeSegment, errorResponse, json, methodNotAllowed, notFound } from './http.js';
import type { PageTokenCodec } from './page-token.js';
import { pageResponse, queryPage } from './paging.js';
import type { ReferenceApp, ReferenceDeps, ReferenceEntitlement, ReferenceRequest, ReferenceResponse, ReferenceUser } from './types.js';

export { parsePageSize } from './paging.js';

export interface ApiContext {
  apps: Map<string, ReferenceApp>;
  users: readonly ReferenceUser[];
  credentials: Map<string, CredentialEntry>;
  pageTokens: PageTokenCodec;
  deps: Pick<ReferenceDeps, 'clock' | 'tokenStore'>;
}

type AuthOutcome = { ok: true } | { ok: false; response: ReferenceResponse };

function unauthorized(description: string, invalidToken: boolean): ReferenceResponse {
  // RFC 6750 §3: no error code when no credentials were sent; invalid_token when one was but is unusable.
  const challenge = invalidToken
    ? `Bearer realm="api", error="invalid_token", error_description="${description}"`
    : 'Bearer realm="api"';
  return errorResponse(401, invalidToken ? 'invalid_token' : 'unauthorized', description, { 'www-authenticate': challenge });
}

export function authenticate(request: ReferenceRequest, context: ApiContext): AuthOutcome {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return { ok: false, response: unauthorized('an access token is required', false) };
  const match = /^\s*bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!match) return { ok: false, response: unauthorized('the Authorization header is not a Bearer token', true) };
  const now = context.deps.clock.now();
  const record = context.deps.tokenStore.get(sha256Url(match[1] as string), now);
  if (record === undefined) return { ok: false, response: unauthorized('the access token is unknown or expired', true) };
  const credential = context.credentials.get(record.clientId);
  // The credential's address restriction holds for every use, not only for getting the token.
  if (credential !== undefined && !credential.addresses.allows(request.remoteAddress)) {
    return { ok: false, response: errorResponse(403, 'forbidden', 'the credential may not be used from this address') };
  }
  return { ok: true };
}

/** An app as the list and search operations show it (the real description's `c1.api.app.v1.App`, in part). */
export function appView(app: ReferenceApp): unknown {
  return { id: app.appId, displayName: app.displayName };
}

/** An entitlement wrapped as the real description's `AppEntitlementView` (§2.4: `appEntitlement`). */
export function entitlementView(app: ReferenceApp, entitlement: ReferenceEntitlement): unknown {
  return { appEntitlement: { id: entitlement.id, appId: app.appId, displayName: entitlement.displayName, description: entitlement.description } };
}

/**
 * `segments` are the raw segments after `/api/v1/apps`: `[]` (the app list), or `[app_id, operation]`.
 */
export function handleApps(request: ReferenceRequest, segments: string[], query: URLSearchParams, context: ApiContext): ReferenceResponse {
  if (segments.length === 0) return listApps(request, query, context);
  const [rawAppId, operation, ...rest] = segments;
  if (rawAppId === undefined || rawAppId === '' || rest.length > 0) return notFound();
  if (operation !== 'ownerids' && operation !== 'entitlements') return notFound();
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
  const auth = authenticate(request, context);
  if (!auth.ok) return auth.response;
  const appId = decodeSegment(rawAppId);
  if (appId === undefined) return errorResponse(400, 'invalid_request', 'the app ID is not valid percent-encoding');
  const app = context.apps.get(appId);
  if (app === undefined) return notFound('no app with that ID');
  if (request.bodyExceeded) return errorResponse(413, 'payload_too_large', 'GET requests take no body', { connection: 'close' });
  if (operation === 'ownerids') return json(200, { userIds: app.ownerIds === null ? null : [...app.ownerIds] });
  const page = queryPage(query);
  if (!page.ok) return page.response;
  return pageResponse(app.entitlements, `entitlements\n${app.appId}`, page.page, context.pageTokens, (entitlement) => entitlementView(app, entitlement));
}

/** `GET /api/v1/apps`: every app, bare (`c1.api.app.v1.Apps.List`). */
function listApps(request: ReferenceRequest, query: URLSearchParams, context: ApiContext): ReferenceResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
  const auth = authenticate(request, context);
  if (!auth.ok) return auth.response;
  if (request.bodyExceeded) return errorResponse(413, 'payload_too_large', 'GET requests take no body', { connection: 'close' });
  const page = queryPage(query);
  if (!page.ok) return page.response;
  return pageResponse([...context.apps.values()], 'apps', page.page, context.pageTokens, appView);
}
