import { defineFault } from '../support/define.js';
import { isObject } from '../support/http.js';
import { withPage } from '../support/operations.js';

export const searchDisplayNameObject = defineFault({
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
});
