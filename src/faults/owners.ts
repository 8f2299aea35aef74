import { errorResponse, header, isObject, json, onRoute, readJson, routeOf, withHeaders, withJsonBody, withResponseHeaders } from './support/http.js';
import { mintBearer } from './support/token-endpoint.js';
import type { FaultTable } from './types.js';

export const FAULTS: FaultTable = [
  {
    name: 'api-auth-optional-owners',
    description: 'Serves the owner-ID list to requests without an Authorization header, as if it were public.',
    breaks: ['OWN-07', 'AUTH-08'],
    wrap: (handler, env) =>
      onRoute('api', handler, async (request, route, next) => {
        const anonymous = route.kind === 'api' && route.operation === 'ownerids' && (header(request, 'authorization') ?? '').trim() === '';
        return next(anonymous ? withHeaders(request, { authorization: `Bearer ${mintBearer(env)}` }) : request);
      }),
  },
  {
    name: 'owners-ids-as-objects',
    description: 'Lists owners as objects (`"userIds": [{"id": "..."}]`) instead of strings.',
    breaks: ['OWN-04', 'OWN-05'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        const body = readJson(response);
        if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200 || !isObject(body) || !Array.isArray(body.userIds)) return response;
        return withJsonBody(response, { userIds: body.userIds.map((id) => ({ id })) });
      }),
  },
  {
    name: 'owners-last-dropped',
    description: 'Loses the last owner of every app (an off-by-one slice): `userIds` is not the app\'s owners.',
    breaks: ['OWN-05'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        const body = readJson(response);
        if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200 || !isObject(body) || !Array.isArray(body.userIds)) return response;
        return withJsonBody(response, { userIds: body.userIds.slice(0, -1) });
      }),
  },
  {
    name: 'owners-ownerless-404',
    description: 'Answers 404 for the owner IDs of an app that has no owners, as if the app did not exist (an empty lookup read as "not found").',
    breaks: ['OWN-X01'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        if (route.kind !== 'api' || route.operation !== 'ownerids' || response.status !== 200) return response;
        const body = readJson(response);
        const ids = isObject(body) ? body.userIds : undefined;
        return ids === null || (Array.isArray(ids) && ids.length === 0) ? errorResponse(404, 'not_found', 'no owners for that app') : response;
      }),
  },
  {
    name: 'owners-route-trailing-slash',
    description: 'Serves the owner-ID list only at `/ownerids/` (trailing slash): the documented path answers 404.',
    breaks: ['OWN-01', 'OWN-02', 'OWN-03', 'OWN-04', 'OWN-05', 'OWN-07'],
    explains: {
      'OWN-06': 'the observation needs the 200 body of the owner-ID list',
    },
    wrap: (handler) => async (request) => {
      const route = routeOf(request);
      if (route.kind === 'api' && route.operation === 'ownerids') return errorResponse(404, 'not_found', 'no such resource');
      return handler(request);
    },
  },
  {
    name: 'owners-text-plain',
    description: 'Sends the owner-ID list with `Content-Type: text/plain` (the body is still JSON).',
    breaks: ['OWN-02'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        return route.kind === 'api' && route.operation === 'ownerids' && response.status === 200
          ? withResponseHeaders(response, { 'content-type': 'text/plain; charset=utf-8' })
          : response;
      }),
  },
  {
    name: 'owners-unknown-app-empty',
    description: 'Answers 200 `{"userIds": null}` for an app that does not exist, instead of 404.',
    breaks: ['OWN-08'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        return route.kind === 'api' && route.operation === 'ownerids' && response.status === 404 ? json(200, { userIds: null }) : response;
      }),
  },
  {
    name: 'owners-wrapped-in-data',
    description: 'Wraps the owner-ID list response in an envelope: `{"data": {"userIds": [...]}}` instead of `{"userIds": [...]}`.',
    breaks: ['OWN-03', 'OWN-04', 'OWN-05'],
    wrap: (handler) =>
      onRoute('api', handler, async (request, route, next) => {
        const response = await next(request);
        return route.kind === 'api' && route.operation === 'ownerids' && response.status === 200
          ? withJsonBody(response, { data: readJson(response) })
          : response;
      }),
  },
];
