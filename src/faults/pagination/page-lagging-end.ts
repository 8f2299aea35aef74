import { defaultNext, paginationFault } from '../support/pages.js';

export const pageLaggingEnd = paginationFault({
  name: 'page-lagging-end',
  description: 'Decides "more pages" by whether the page is full: when the items exactly fill the last page it still sends a token, which leads to an empty page.',
  breaks: ['PAGE-19', 'PAGE-20'],
  rules: {
    next: (page, itemCount) => (itemCount > 0 && itemCount === page.size ? { offset: page.offset + itemCount } : defaultNext(page)),
  },
});
