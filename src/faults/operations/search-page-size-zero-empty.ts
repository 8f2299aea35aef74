import { defineFault } from '../support/define.js';
import { isSearch, searchBodyOf, withPage } from '../support/operations.js';

export const searchPageSizeZeroEmpty = defineFault({
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
});
