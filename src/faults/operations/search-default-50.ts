import { defineFault } from '../support/define.js';
import { isSearch, withSearchBody } from '../support/operations.js';

export const searchDefault50 = defineFault({
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
});
