/**
 * The resource API under `/api/v1` (service.md §4.2, §4.4, §5.1; rulings 6, 8–12): bearer authentication
 * and the two app operations. Order: unknown route → 404, wrong method → 405, then authentication (401),
 * then the app (404), then the parameters (400).
 */
import { sha256Url, type CredentialEntry } from './credentials.js';
import { decodeSegment, errorResponse, json, methodNotAllowed, notFound } from './http.js';
import type { PageTokenCodec } from './page-token.js';
import type { ReferenceApp, ReferenceDeps, ReferenceRequest, ReferenceResponse } from './types.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../spec-numbers.js';


export interface ApiContext {
  apps: Map<string, ReferenceApp>;
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

/** `segments` are the raw segments after `/api/v1/apps/`: `[app_id, operation]`. */
export function handleApps(request: ReferenceRequest, segments: string[], query: URLSearchParams, context: ApiContext): ReferenceResponse {
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
  return listEntitlements(app, query, context.pageTokens);
}

/** page_size: absent or empty → 25; an integer is clamped to 10..100; anything else → undefined (400). */
export function parsePageSize(values: string[]): number | undefined {
  if (values.length === 0) return PAGE_SIZE_DEFAULT;
  if (values.length > 1) return undefined;
  const text = values[0] as string;
  if (text === '') return PAGE_SIZE_DEFAULT;
  return clampedPageSize(text);
}

/**
 * An integer literal (`-?\d+`, no trimming: " 10" is not one) clamped to 10..100, or undefined. Read from its
 * digits, never through a number type, so a value of any length keeps its meaning (ruling 32: 2147483648,
 * 9223372036854775808 or forty digits act as 100, never as what a fixed-width integer would wrap them to);
 * 0 and negatives act as 10 (rulings 9, 33).
 */
export function clampedPageSize(text: string): number | undefined {
  const match = /^(-?)(\d+)$/.exec(text);
  if (match === null) return undefined;
  if (match[1] === '-') return PAGE_SIZE_MIN;
  const digits = (match[2] as string).replace(/^0+(?=\d)/, '');
  if (digits.length > String(PAGE_SIZE_MAX).length) return PAGE_SIZE_MAX;
  return Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, Number(digits)));
}

function listEntitlements(app: ReferenceApp, query: URLSearchParams, pageTokens: PageTokenCodec): ReferenceResponse {
  const pageSize = parsePageSize(query.getAll('page_size'));
  if (pageSize === undefined) return errorResponse(400, 'invalid_request', 'page_size must be an integer');
  const tokens = query.getAll('page_token');
  if (tokens.length > 1) return errorResponse(400, 'invalid_request', 'page_token is repeated');
  const token = tokens[0] ?? '';
  let offset = 0;
  if (token !== '') {
    const decoded = pageTokens.decode(app.appId, token);
    if (decoded === undefined || decoded > app.entitlements.length) {
      return errorResponse(400, 'invalid_request', 'page_token is not a token this listing issued');
    }
    offset = decoded;
  }
  const end = Math.min(offset + pageSize, app.entitlements.length);
  const list = app.entitlements.slice(offset, end).map((entitlement) => ({
    appEntitlement: { id: entitlement.id, appId: app.appId, displayName: entitlement.displayName, description: entitlement.description },
  }));
  // "" on the page holding the last item, also when that page is exactly full (ruling 11).
  const nextPageToken = end < app.entitlements.length ? pageTokens.encode(app.appId, end) : '';
  return json(200, { list, nextPageToken });
}
