import { defineFault } from '../support/define.js';
import { isSearch, searchBodyOf, withPage } from '../support/operations.js';

/** Tokens remembered per sandbox: enough for every walk of a run, bounded all the same. */
const REMEMBERED_TOKENS = 10_000;

export const searchPageRepeatsLastItem = defineFault({
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
});
