import { defineFault } from '../support/define.js';
import { isSearch, withSearchBody } from '../support/operations.js';

export const searchPageSizeQueryOnly = defineFault({
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
});
