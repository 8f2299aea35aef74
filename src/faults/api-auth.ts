import type { TokenStore } from '../reference/types.js';
import { bearerToken, errorCode, errorResponse, header, isObject, onRoute, readJson, routeOf, withHeaders, withResponseHeaders } from './support/http.js';
import { grantOf, mintBearer, tokenForm } from './support/token-endpoint.js';
import type { FaultTable } from './types.js';

/** Seconds a new token stays unusable (a replica that has not caught up). */
const LAG_SECONDS = 30;

/** How much of a token the faulty lookup compares. */
const COMPARED = 16;

export const FAULTS: FaultTable = [
  {
    name: 'api-401-without-challenge',
    description: 'Answers 401 on API calls without a `WWW-Authenticate: Bearer` challenge.',
    breaks: ['AUTH-08', 'AUTH-09'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, _route, next) => withResponseHeaders(await next(request), { 'www-authenticate': null })),
  },
  {
    name: 'api-403-for-invalid-token',
    description: 'Answers 403 (not 401) when an API call carries a token that is unknown, expired, empty or under another scheme.',
    breaks: ['AUTH-02', 'AUTH-03', 'AUTH-04', 'AUTH-05', 'AUTH-06', 'AUTH-07', 'AUTH-09'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, _route, next) => {
        const response = await next(request);
        return response.status === 401 && errorCode(response) === 'invalid_token'
          ? errorResponse(403, 'forbidden', 'the token does not grant access')
          : response;
      }),
  },
  {
    name: 'api-any-bearer-accepted',
    description: 'Checks only that API calls carry `Authorization: Bearer <something>`: the token itself is never looked up.',
    breaks: ['AUTH-02', 'AUTH-03', 'AUTH-06', 'AUTH-07', 'AUTH-09'],
    wrap: (handler, env) =>
      onRoute('api', handler, async (request, _route, next) => {
        const someToken = /^\s*bearer\s+\S+\s*$/i.test(header(request, 'authorization') ?? '');
        return next(someToken ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
      }),
  },
  {
    name: 'api-assertion-tokens-refused',
    description: 'Issues tokens for client assertions that the API then does not honour (they land in a store the API does not read).',
    breaks: ['AUTH-11'],
    wrap: (handler) => {
      const fromAssertions = new Set<string>();
      return async (request) => {
        const route = routeOf(request);
        if (route.kind === 'api' && fromAssertions.has(bearerToken(request) ?? '')) {
          return errorResponse(401, 'invalid_token', 'the access token is unknown or expired', { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
        }
        const response = await handler(request);
        const form = route.kind === 'token' ? tokenForm(request) : undefined;
        const body = readJson(response);
        if (form && grantOf(form) === 'assertion' && response.status === 200 && isObject(body) && typeof body.access_token === 'string') {
          fromAssertions.add(body.access_token);
        }
        return response;
      };
    },
  },
  {
    name: 'api-auth-optional-entitlements',
    description: 'Serves the entitlement list to requests without an Authorization header (a token is checked only when one is sent).',
    breaks: ['AUTH-01'],
    wrap: (handler, env) =>
      onRoute('api', handler, async (request, route, next) => {
        const anonymous = route.kind === 'api' && route.operation === 'entitlements' && (header(request, 'authorization') ?? '').trim() === '';
        return next(anonymous ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
      }),
  },
  {
    name: 'api-basic-scheme-accepted',
    description: 'Reads the access token from any Authorization scheme: `Basic <token>` works like `Bearer <token>`.',
    breaks: ['AUTH-04'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, _route, next) => {
        const match = /^\s*basic\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
        return next(match ? withHeaders(request, { authorization: `Bearer ${match[1]}` }) : request);
      }),
  },
  {
    name: 'api-empty-bearer-accepted',
    description: 'Takes `Authorization: Bearer` with an empty token as a request that needs no token and serves it.',
    breaks: ['AUTH-05'],
    wrap: (handler, env) =>
      onRoute('api', handler, async (request, _route, next) => {
        const empty = /^\s*bearer\s*$/i.test(header(request, 'authorization') ?? 'x');
        return next(empty ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
      }),
  },
  {
    name: 'api-entitlements-forbidden',
    description: 'Refuses every valid token on the entitlement list with 403 (a role check that no credential passes).',
    breaks: ['AUTH-12'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        return route.kind === 'api' && route.operation === 'entitlements' && response.status === 200
          ? errorResponse(403, 'insufficient_scope', 'the token lacks the role for this operation')
          : response;
      }),
  },
  {
    name: 'api-token-activation-lag',
    description: `Replicates new access tokens to the API lazily: a token is refused for ${LAG_SECONDS} s after it was issued.`,
    breaks: ['AUTH-10', 'AUTH-11', 'AUTH-12'],
    explains: {
      'AUTH-07': 'the fresh token is refused before the clock moves, so its expiry cannot be observed (harness error)',
      'OWN-01': 'the harness uses each token right after obtaining it, and it is refused',
    },
    ports: (deps) => {
      const inner = deps.tokenStore;
      const issuedAt = new Map<string, number>();
      const tokenStore: TokenStore = {
        put: (hash, record, now) => {
          issuedAt.set(hash, now);
          inner.put(hash, record, now);
        },
        get: (hash, now) => (now - (issuedAt.get(hash) ?? now) < LAG_SECONDS ? undefined : inner.get(hash, now)),
        sweep: (now) => inner.sweep(now),
        size: () => inner.size(),
      };
      return { tokenStore };
    },
  },
  {
    name: 'api-token-expiry-ignored',
    description: 'Keeps access tokens forever and never compares their expiry with the time: an expired token is still accepted.',
    breaks: ['AUTH-07'],
    ports: (deps) => {
      const inner = deps.tokenStore;
      // Every lookup and insert happens "at the beginning of time", so nothing is ever expired or swept.
      const tokenStore: TokenStore = {
        put: (hash, record) => inner.put(hash, record, Number.NEGATIVE_INFINITY),
        get: (hash) => inner.get(hash, Number.NEGATIVE_INFINITY),
        sweep: () => 0,
        size: () => inner.size(),
      };
      return { tokenStore };
    },
  },
  {
    name: 'api-token-prefix-match',
    description: `Looks access tokens up by their first ${COMPARED} characters only (an index on a prefix): a token altered after them is accepted.`,
    breaks: ['AUTH-06'],
    wrap: (handler) => {
      const issued = new Map<string, string>();
      return async (request) => {
        const route = routeOf(request);
        if (route.kind === 'token') {
          const response = await handler(request);
          const body = readJson(response);
          if (response.status === 200 && isObject(body) && typeof body.access_token === 'string') {
            issued.set(body.access_token.slice(0, COMPARED), body.access_token);
          }
          return response;
        }
        if (route.kind === 'api') {
          const token = bearerToken(request);
          const known = token === undefined ? undefined : issued.get(token.slice(0, COMPARED));
          if (known !== undefined && known !== token) return handler(withHeaders(request, { authorization: `Bearer ${known}` }));
        }
        return handler(request);
      };
    },
  },
];
