import { defineFault } from '../support/define.js';
import { isSearch, withSearchBody } from '../support/operations.js';

export const searchTokenNotValidated = defineFault({
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
});
