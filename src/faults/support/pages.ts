/**
 * Pagination faults re-list the entitlements with one rule changed. The reference still answers the
 * request first (routing, authentication, the app's existence), with page_size and page_token taken out so
 * it cannot refuse what the faulty rules accept; the wrapper then builds the page from the tenant's data,
 * as the reference would (same item shape, same kind of HMAC-bound tokens), except for the rules a fault
 * overrides. With no override the pages equal the reference's (tests/faults checks that).
 */
import { parsePageSize } from '../../reference/api.js';
import { createPageTokenCodec } from '../../reference/page-token.js';
import type { ReferenceApp, ReferenceRequest, ReferenceResponse } from '../../reference/types.js';
import type { FaultBehaviour } from '../types.js';
import { errorResponse, json, routeOf, withQuery } from './http.js';

export { parsePageSize };

export interface PageFacts {
  /** Index of the first item of the page. */
  offset: number;
  /** The page size in force. */
  size: number;
  total: number;
}

/** What comes after a page: the offset of the next one, `end` (""), or a wrong value a fault sends. */
export type NextToken = { offset: number } | 'end' | null | undefined;

export interface PageRules {
  /** page_size values (as repeated in the query) → the size in force, undefined for 400. */
  pageSize?: (values: string[]) => number | undefined;
  /** Refuse this first-request token form (`''`: page_token sent empty). */
  refuseEmptyFirstToken?: boolean;
  /** A page_token that is not a token of this listing: `first` serves the first page instead of 400. */
  invalidToken?: 'refuse' | 'first';
  /** Items of the page (default: the slice offset..offset+size). */
  items?: (app: ReferenceApp, page: PageFacts) => ReferenceApp['entitlements'];
  /** The next token (default: the next offset while items remain, else end). */
  next?: (page: PageFacts, itemCount: number) => NextToken;
  /** The body from the list and the token (default `{list, nextPageToken}`). */
  body?: (list: unknown[], nextPageToken: string | null | undefined, page: PageFacts) => unknown;
}

export function defaultItems(app: ReferenceApp, page: PageFacts): ReferenceApp['entitlements'] {
  return app.entitlements.slice(page.offset, Math.min(page.offset + page.size, page.total));
}

export function defaultNext(page: PageFacts): NextToken {
  const end = Math.min(page.offset + page.size, page.total);
  return end < page.total ? { offset: end } : 'end';
}

export function wrapItem(app: ReferenceApp, entitlement: ReferenceApp['entitlements'][number]): unknown {
  return { appEntitlement: { id: entitlement.id, appId: app.appId, displayName: entitlement.displayName, description: entitlement.description } };
}

/** The entitlement listing under `rules`, for a request the reference has already let through. */
export function listingWith(rules: PageRules): (app: ReferenceApp, query: URLSearchParams) => ReferenceResponse {
  const tokens = createPageTokenCodec();
  return (app, query) => {
    const size = (rules.pageSize ?? parsePageSize)(query.getAll('page_size'));
    if (size === undefined) return errorResponse(400, 'invalid_request', 'page_size must be an integer');
    const given = query.getAll('page_token');
    if (given.length > 1) return errorResponse(400, 'invalid_request', 'page_token is repeated');
    const token = given[0];
    if (token === '' && rules.refuseEmptyFirstToken) return errorResponse(400, 'invalid_request', 'page_token must not be empty');
    const total = app.entitlements.length;
    let offset = 0;
    if (token !== undefined && token !== '') {
      const decoded = tokens.decode(app.appId, token);
      if (decoded === undefined || decoded > total) {
        if (rules.invalidToken !== 'first') return errorResponse(400, 'invalid_request', 'page_token is not a token this listing issued');
      } else {
        offset = decoded;
      }
    }
    const page: PageFacts = { offset, size, total };
    const items = (rules.items ?? defaultItems)(app, page);
    const next = (rules.next ?? defaultNext)(page, items.length);
    const nextPageToken = next === 'end' ? '' : next === null || next === undefined ? next : tokens.encode(app.appId, next.offset);
    const list = items.map((item) => wrapItem(app, item));
    return json(200, rules.body ? rules.body(list, nextPageToken, page) : { list, nextPageToken });
  };
}

function stripPaging(request: ReferenceRequest): ReferenceRequest {
  return withQuery(request, (query) => {
    query.delete('page_size');
    query.delete('page_token');
  });
}

/** The entitlements listing served by `rules` instead of the reference's paging. */
export function paginationFault({ rules }: { rules: PageRules }): FaultBehaviour {
  return {
    wrap: (handler, env) => {
      const list = listingWith(rules);
      const apps = new Map(env.tenant.reference.apps.map((app) => [app.appId, app]));
      return async (request) => {
        const route = routeOf(request);
        if (route.kind !== 'api' || route.operation !== 'entitlements') return handler(request);
        const response = await handler(stripPaging(request));
        const app = apps.get(route.appId);
        if (response.status !== 200 || app === undefined) return response;
        return list(app, route.query);
      };
    },
  };
}
