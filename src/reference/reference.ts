/**
 * createReference: the whole service of service.md as one request handler over injected ports.
 *
 * Routes: POST /auth/v1/token, GET /api/v1/apps, GET /api/v1/apps/{id}/ownerids,
 * GET /api/v1/apps/{id}/entitlements, POST /api/v1/search/apps, POST /api/v1/search/entitlements,
 * POST /api/v1/webhooks/incoming/{id}, GET /openapi.json (the reference's own description), and
 * /__hooks/v1/* when hooks are on. Anything else: 404.
 *
 * Never 500. An exception nobody anticipated is a bug in this server, so it is not blamed on the client
 * with a 400; it gets 503 with Retry-After (the request may well succeed later) and a log line. The fuzz
 * test counts any 5xx as a failure, so such a bug cannot hide behind a 4xx.
 */
import { handleApps, type ApiContext } from './api.js';
import { createAddressMatcher } from './cidr.js';
import { createClock } from './clock.js';
import { indexCredentials } from './credentials.js';
import { createMemoryEventStore } from './event-store.js';
import { HOOKS_BODY_LIMIT, HOOKS_PREFIX, handleHooks } from './hooks.js';
import { decodeSegment, errorResponse, json, methodNotAllowed, notFound, parseTarget, targetPath } from './http.js';
import { createHttpsJwksFetcher, createJwksCache } from './jwks.js';
import { OPENAPI_PATH, referenceOpenApiDocument } from './openapi-document.js';
import { createPageTokenCodec } from './page-token.js';
import { createMemoryRunner } from './runner.js';
import { SEARCH_BODY_LIMIT, SEARCH_PREFIX, handleSearch } from './search.js';
import { TOKEN_BODY_LIMIT, handleToken, type TokenEndpointContext } from './token-endpoint.js';
import { createMemoryTokenStore } from './token-store.js';
import { PortUnavailable } from './unavailable.js';
import type { Reference, ReferenceConfig, ReferenceDeps, ReferenceRequest, ReferenceResponse } from './types.js';
import { WEBHOOK_PATH_PREFIX, handleWebhook, listenerEntry, type ListenerEntry, type WebhookContext } from './webhooks.js';
import { WEBHOOK_BODY_MAX_BYTES } from '../spec-numbers.js';

export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
/** Body read for routes that take none (GET API calls, unknown paths): enough to tell "a body was sent". */
const OTHER_BODY_LIMIT = 1024;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The listener segment of an origin-form target `/api/v1/webhooks/incoming/{id}[?query][#fragment]`, one
 * non-empty segment, still percent-encoded; undefined for any other target (the general route decides).
 * The same answer parseTarget's segments give, without the split.
 */
export function webhookSegment(url: string): string | undefined {
  if (!url.startsWith(WEBHOOK_PATH_PREFIX)) return undefined;
  let end = url.length;
  for (let i = WEBHOOK_PATH_PREFIX.length; i < url.length; i += 1) {
    const code = url.charCodeAt(i);
    if (code === 0x3f /* ? */ || code === 0x23 /* # */) {
      end = i;
      break;
    }
    if (code === 0x2f /* / */) return undefined;
  }
  return end > WEBHOOK_PATH_PREFIX.length ? url.slice(WEBHOOK_PATH_PREFIX.length, end) : undefined;
}

export function defaultDeps(config: ReferenceConfig): ReferenceDeps {
  return {
    clock: createClock(),
    eventStore: createMemoryEventStore(),
    tokenStore: createMemoryTokenStore(),
    jwksFetcher: createHttpsJwksFetcher({ caPem: config.jwksCaPem, ...(config.jwksTimeoutMs === undefined ? {} : { timeoutMs: config.jwksTimeoutMs }) }),
    runner: createMemoryRunner(),
    logger: (line) => process.stderr.write(`[reference] ${line}\n`),
  };
}

export function createReference(config: ReferenceConfig, overrides: Partial<ReferenceDeps> = {}): Reference {
  const deps: ReferenceDeps = { ...defaultDeps(config), ...overrides };
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const bodyLimit = config.webhookBodyBytes ?? WEBHOOK_BODY_MAX_BYTES;
  const credentials = indexCredentials(config.credentials);

  const tokenContext: TokenEndpointContext = {
    credentials,
    tenantDomain: config.tenantDomain,
    tokenTtlSeconds: config.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    deps,
  };
  const apiContext: ApiContext = {
    apps: new Map(config.apps.map((app) => [app.appId, app])),
    users: config.users ?? [],
    credentials,
    pageTokens: createPageTokenCodec(),
    deps,
  };
  const listeners = new Map<string, ListenerEntry>();
  for (const listener of config.listeners) {
    const url = `${baseUrl}${WEBHOOK_PATH_PREFIX}${encodeURIComponent(listener.listenerId)}`;
    listeners.set(listener.listenerId, listenerEntry(listener, createAddressMatcher(listener.allowedCidrs), url));
  }
  const webhookContext: WebhookContext = {
    listeners,
    baseUrl,
    bodyLimit,
    jwks: createJwksCache({ fetcher: deps.jwksFetcher, clock: deps.clock }),
    deps,
  };
  const hooks = config.hooks?.enabled ? { token: config.hooks.token, deps } : undefined;
  const description = referenceOpenApiDocument(baseUrl);

  // Not async: a route that answers synchronously (an HMAC webhook, a refusal) costs no promise until `handle`.
  const route = (request: ReferenceRequest): ReferenceResponse | Promise<ReferenceResponse> => {
    // The load path first: an origin-form webhook target is routed without splitting it into segments.
    const listenerSegment = webhookSegment(request.url);
    if (listenerSegment !== undefined) return webhook(request, listenerSegment);
    const target = parseTarget(request.url);
    if (target === undefined) return errorResponse(400, 'invalid_request', 'the request target is not a path');
    const [first, second, third, fourth, ...rest] = target.segments;
    if (first === 'auth' && second === 'v1' && third === 'token' && fourth === undefined) {
      return handleToken(request, tokenContext);
    }
    if (target.path === OPENAPI_PATH) {
      return request.method === 'GET' || request.method === 'HEAD' ? json(200, description) : methodNotAllowed('GET');
    }
    if (first === 'api' && second === 'v1') {
      if (third === 'apps') return handleApps(request, target.segments.slice(3), target.query, apiContext);
      if (third === 'search') return handleSearch(request, target.segments.slice(3), apiContext);
      if (third === 'webhooks' && fourth === 'incoming' && rest.length === 1 && rest[0] !== '') return webhook(request, rest[0] as string);
    }
    if (hooks !== undefined && `/${first}/${second}` === HOOKS_PREFIX) {
      return handleHooks(request, target.segments.slice(2), target.query, hooks);
    }
    return notFound();
  };

  const webhook = (request: ReferenceRequest, segment: string): ReferenceResponse | Promise<ReferenceResponse> => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const listenerId = decodeSegment(segment);
    if (listenerId === undefined) return errorResponse(400, 'invalid_request', 'the listener ID is not valid percent-encoding');
    return handleWebhook(request, listenerId, webhookContext);
  };

  const failed = (request: ReferenceRequest, error: unknown): ReferenceResponse => {
    // A port that stopped (a state store after a failed write) says why in the 503 itself.
    if (error instanceof PortUnavailable) return errorResponse(503, 'temporarily_unavailable', error.description);
    deps.logger(`unexpected error on ${request.method} ${request.url.split('?')[0]}: ${(error as Error)?.stack ?? String(error)}`);
    return errorResponse(503, 'temporarily_unavailable', 'the request could not be processed; try again', { 'retry-after': '1' });
  };

  // A synchronous answer (an HMAC webhook, a refusal) is handed back as it is: no promise per request.
  const handle = (request: ReferenceRequest): ReferenceResponse | Promise<ReferenceResponse> => {
    let answer: ReferenceResponse | Promise<ReferenceResponse>;
    try {
      answer = route(request);
    } catch (error) {
      return failed(request, error);
    }
    return answer instanceof Promise ? answer.catch((error: unknown) => failed(request, error)) : answer;
  };

  // The method does not matter: a wrong method still gets its answer without reading a large body.
  // Called on every request before the route parses the target: only the path is looked at here.
  const limitFor = (_method: string, url: string): number => {
    const path = targetPath(url);
    if (path === undefined) return OTHER_BODY_LIMIT;
    if (path.startsWith(WEBHOOK_PATH_PREFIX)) return bodyLimit;
    if (path === '/auth/v1/token') return TOKEN_BODY_LIMIT;
    if (path.startsWith(SEARCH_PREFIX)) return SEARCH_BODY_LIMIT;
    if (hooks !== undefined && path.startsWith(`${HOOKS_PREFIX}/`)) return HOOKS_BODY_LIMIT;
    return OTHER_BODY_LIMIT;
  };

  const sweep = (): void => {
    try {
      const now = deps.clock.now();
      deps.eventStore.sweep(now);
      deps.tokenStore.sweep(now);
    } catch (error) {
      // A replaced store may throw; the timer must not take the process down.
      deps.logger(`sweep failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();

  return { handle, limitFor, deps, config, sweep, close: () => clearInterval(timer) };
}
