/**
 * The search operations under `/api/v1/search` (service.md §1, §4.4: "body for POST"; ruling 34), shaped as
 * the real description declares them: `POST /api/v1/search/apps` (`c1.api.app.v1.AppSearch.Search`, apps
 * bare), `POST /api/v1/search/entitlements` (`c1.api.app.v1.AppEntitlementSearchService.Search`, items
 * wrapped in `appEntitlement`) and `POST /api/v1/search/users` (`c1.api.user.v1.UserSearch.Search`, items
 * wrapped in `user`). The page size and token travel in the JSON body (`pageSize`/`pageToken`, or
 * protobuf's other spelling `page_size`/`page_token`). Order: unknown route → 404, wrong method → 405,
 * authentication (401), the body (400).
 */
import { appView, authenticate, entitlementView, type ApiContext } from './api.js';
import { errorResponse, methodNotAllowed, notFound, payloadTooLarge } from './http.js';
import { bodyPage, pageResponse, searchBody } from './paging.js';
import type { ReferenceApp, ReferenceEntitlement, ReferenceRequest, ReferenceResponse, ReferenceUser } from './types.js';

export const SEARCH_PREFIX = '/api/v1/search/';
/** A search request is a small JSON object; this leaves room for long ID lists. */
export const SEARCH_BODY_LIMIT = 64 * 1024;

/** The filters both searches understand (the rest of the real request's fields are accepted and ignored). */
interface Filters {
  appIds?: string[];
  excludeAppIds?: string[];
  /** The user search's `ids` and `excludeIds`. */
  ids?: string[];
  excludeIds?: string[];
  query?: string;
}

type FilterOutcome = { ok: true; filters: Filters } | { ok: false; response: ReferenceResponse };

function stringList(value: unknown, name: string): string[] | undefined | Error {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return new Error(`${name} must be an array of strings`);
  return value as string[];
}

function readFilters(body: Record<string, unknown>): FilterOutcome {
  const appIds = stringList(body.appIds ?? body.app_ids, 'appIds');
  const excludeAppIds = stringList(body.excludeAppIds ?? body.exclude_app_ids, 'excludeAppIds');
  const ids = stringList(body.ids, 'ids');
  const excludeIds = stringList(body.excludeIds ?? body.exclude_ids, 'excludeIds');
  for (const list of [appIds, excludeAppIds, ids, excludeIds]) {
    if (list instanceof Error) return { ok: false, response: errorResponse(400, 'invalid_request', list.message) };
  }
  const query = body.query;
  if (query !== undefined && query !== null && typeof query !== 'string') return { ok: false, response: errorResponse(400, 'invalid_request', 'query must be a string') };
  return {
    ok: true,
    filters: {
      ...(appIds ? { appIds: appIds as string[] } : {}),
      ...(excludeAppIds ? { excludeAppIds: excludeAppIds as string[] } : {}),
      ...(ids ? { ids: ids as string[] } : {}),
      ...(excludeIds ? { excludeIds: excludeIds as string[] } : {}),
      ...(typeof query === 'string' && query !== '' ? { query: query.toLowerCase() } : {}),
    },
  };
}

function appMatches(app: ReferenceApp, filters: Filters): boolean {
  if (filters.appIds && filters.appIds.length > 0 && !filters.appIds.includes(app.appId)) return false;
  if (filters.excludeAppIds?.includes(app.appId)) return false;
  return true;
}

function textMatches(texts: string[], filters: Filters): boolean {
  return filters.query === undefined || texts.some((text) => text.toLowerCase().includes(filters.query as string));
}

/** A user as the real description's `UserView` wraps it. */
function userView(user: ReferenceUser): unknown {
  return { user: { id: user.id, displayName: user.displayName, email: user.email, status: 'ENABLED' } };
}

/** `segments` are the raw segments after `/api/v1/search/`. */
export function handleSearch(request: ReferenceRequest, segments: string[], context: ApiContext): ReferenceResponse {
  const [operation, ...rest] = segments;
  if (rest.length > 0 || (operation !== 'apps' && operation !== 'entitlements' && operation !== 'users')) return notFound();
  if (request.method !== 'POST') return methodNotAllowed('POST');
  const auth = authenticate(request, context);
  if (!auth.ok) return auth.response;
  if (request.bodyExceeded) return payloadTooLarge(SEARCH_BODY_LIMIT);
  const body = searchBody(request.body);
  if (!body.ok) return body.response;
  const page = bodyPage(body.value);
  if (!page.ok) return page.response;
  const filters = readFilters(body.value);
  if (!filters.ok) return filters.response;
  // The token is bound to the search and its filters: the same request with the next token gets the next page.
  const scope = `search/${operation}\n${JSON.stringify(filters.filters)}`;
  if (operation === 'users') {
    const { ids, excludeIds } = filters.filters;
    const found = context.users.filter((user) => (!ids || ids.length === 0 || ids.includes(user.id)) && !excludeIds?.includes(user.id) && textMatches([user.displayName, user.email], filters.filters));
    return pageResponse(found, scope, page.page, context.pageTokens, userView);
  }
  const apps = [...context.apps.values()].filter((app) => appMatches(app, filters.filters));
  if (operation === 'apps') {
    const found = apps.filter((app) => textMatches([app.displayName], filters.filters));
    return pageResponse(found, scope, page.page, context.pageTokens, appView);
  }
  const found: Array<[ReferenceApp, ReferenceEntitlement]> = apps.flatMap((app) =>
    app.entitlements.filter((e) => textMatches([e.displayName, e.description], filters.filters)).map((e): [ReferenceApp, ReferenceEntitlement] => [app, e]),
  );
  return pageResponse(found, scope, page.page, context.pageTokens, ([app, entitlement]) => entitlementView(app, entitlement));
}
