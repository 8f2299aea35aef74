import { bearerToken, errorResponse, header, isObject, withHeaders } from './support/http.js';
import { faultToken, isSearch, searchBodyOf, withPage, withSearchBody } from './support/operations.js';
import type { FaultTable } from './types.js';

/** Tokens remembered per sandbox: enough for every walk of a run, bounded all the same. */
const REMEMBERED_TOKENS = 10_000;

export const FAULTS: FaultTable = [
  {
    name: 'list-without-token',
    description: 'GET /api/v1/apps answers a request without an Authorization header as if it carried a valid token (§5.1: every API request carries Authorization: Bearer).',
    breaks: ['OPS-01'],
    wrap: (handler, env) => {
      const token = faultToken(env);
      return async (request) => {
        const path = request.url.split('?')[0];
        if (request.method !== 'GET' || path !== '/api/v1/apps' || header(request, 'authorization') !== undefined) return handler(request);
        return handler(withHeaders(request, { authorization: `Bearer ${token()}` }));
      };
    },
  },
  {
    name: 'search-default-50',
    description: 'A search without a page size in its body answers 50 items a page, where the default is 25.',
    breaks: ['OPS-05'],
    wrap: (handler) => async (request) => {
      if (!isSearch(request)) return handler(request);
      return handler(withSearchBody(request, (body) => {
        const given = body.pageSize ?? body.page_size;
        if (given === undefined || given === null) body.pageSize = 50;
      }));
    },
  },
  {
    name: 'search-display-name-object',
    description: 'The app search answers each app\'s displayName as an object ({"text": …}) where the description declares a string: pages no longer match the response schema.',
    breaks: ['OPS-16'],
    wrap: (handler) => async (request) => {
      const response = await handler(request);
      if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/v1/search/apps') return response;
      return withPage(response, (page) => {
        for (const item of page.list) if (isObject(item) && typeof item.displayName === 'string') item.displayName = { text: item.displayName };
      });
    },
  },
  {
    name: 'search-entitlements-unwrapped',
    description: 'The entitlement search lists entitlements bare instead of wrapped in appEntitlement (§2.4; the description\'s AppEntitlementView).',
    breaks: ['OPS-16', 'OPS-17'],
    wrap: (handler) => async (request) => {
      const response = await handler(request);
      if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/v1/search/entitlements') return response;
      return withPage(response, (page) => {
        page.list = page.list.map((item) => (isObject(item) && isObject(item.appEntitlement) ? item.appEntitlement : item));
      });
    },
  },
  {
    name: 'search-no-end-token',
    description: 'A search leaves nextPageToken out of its last page instead of answering "" (ruling 11: always a string).',
    breaks: ['OPS-04', 'OPS-11'],
    wrap: (handler) => async (request) => {
      const response = await handler(request);
      if (!isSearch(request)) return response;
      return withPage(response, (page) => {
        if (page.nextPageToken === '') delete page.nextPageToken;
      });
    },
  },
  {
    name: 'search-page-repeats-last-item',
    description: 'Each later page of a search starts with the last item of the page before it, so a walk returns items twice (ruling 11: every item exactly once).',
    breaks: ['OPS-11', 'OPS-12'],
    wrap: (handler) => {
      // nextPageToken → the last item of the page that issued it.
      const lastItemOf = new Map<string, unknown>();
      return async (request) => {
        const response = await handler(request);
        if (!isSearch(request)) return response;
        const body = searchBodyOf(request);
        const token = body?.pageToken ?? body?.page_token;
        return withPage(response, (page) => {
          const last = page.list[page.list.length - 1];
          if (typeof page.nextPageToken === 'string' && page.nextPageToken !== '' && last !== undefined) {
            if (lastItemOf.size >= REMEMBERED_TOKENS) lastItemOf.clear();
            lastItemOf.set(page.nextPageToken, last);
          }
          if (typeof token === 'string' && lastItemOf.has(token)) page.list.unshift(lastItemOf.get(token));
        });
      };
    },
  },
  {
    name: 'search-page-size-query-only',
    description: 'Reads a search\'s page size only from the query string, as for GET: pageSize and page_size in the JSON body are ignored (service.md §4.4: "body for POST").',
    breaks: ['OPS-06', 'OPS-07', 'OPS-09', 'OPS-10', 'OPS-14', 'OPS-15'],
    wrap: (handler) => async (request) => {
      if (!isSearch(request)) return handler(request);
      return handler(withSearchBody(request, (body, query) => {
        delete body.pageSize;
        delete body.page_size;
        const fromQuery = query.get('page_size');
        if (fromQuery !== null) body.pageSize = fromQuery;
      }));
    },
  },
  {
    name: 'search-page-size-zero-empty',
    description: 'A search takes a page size of 0 literally: an empty page (with a token to go on), where 0 acts as 10 or 25 (ruling 33).',
    breaks: ['OPS-08', 'OPS-09'],
    wrap: (handler) => async (request) => {
      const response = await handler(request);
      if (!isSearch(request)) return response;
      const body = searchBodyOf(request);
      const size = body?.pageSize ?? body?.page_size;
      if (size !== 0 && size !== '0') return response;
      return withPage(response, (page) => {
        page.list.length = 0;
      });
    },
  },
  {
    name: 'search-token-not-validated',
    description: 'A search serves its first page for a page token it never issued, instead of 400 (ruling 12).',
    breaks: ['OPS-13'],
    wrap: (handler) => async (request) => {
      const response = await handler(request);
      if (!isSearch(request) || response.status !== 400) return response;
      return handler(withSearchBody(request, (body) => {
        delete body.pageToken;
        delete body.page_token;
      }));
    },
  },
  {
    name: 'search-token-unchecked',
    description: 'A search accepts any bearer token, unknown or expired, as long as one is sent (ruling 6: 401 for an unknown or expired token).',
    breaks: ['OPS-02', 'OPS-03'],
    wrap: (handler, env) => {
      const valid = faultToken(env);
      return async (request) => {
        if (!isSearch(request) || bearerToken(request) === undefined) return handler(request);
        return handler(withHeaders(request, { authorization: `Bearer ${valid()}` }));
      };
    },
  },
  {
    name: 'search-users-refused',
    description: 'The user search answers 401 even with a valid token (§5.1): the operation the description offers cannot be used.',
    breaks: ['OPS-18'],
    // Every other check of the operation needs its pages: each fails or is skipped on the same 401.
    explains: Object.fromEntries(
      (['OPS-04', 'OPS-05', 'OPS-06', 'OPS-07', 'OPS-08', 'OPS-09', 'OPS-10', 'OPS-11', 'OPS-12', 'OPS-14', 'OPS-15', 'OPS-16', 'OPS-17'] as const).map((id) => [id, 'the user search answers no page at all (401)']),
    ),
    wrap: (handler) => async (request) => {
      if (request.method !== 'POST' || request.url.split('?')[0] !== '/api/v1/search/users') return handler(request);
      return errorResponse(401, 'invalid_token', 'the access token is unknown or expired', { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
    },
  },
];
