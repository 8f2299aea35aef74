import { defineFault } from '../support/define.js';
import { isSearch, withPage } from '../support/operations.js';

export const searchNoEndToken = defineFault({
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
});
