import { defaultNext, paginationFault } from '../support/pages.js';

export const pageTrailingEmptyPage = paginationFault({
  name: 'page-trailing-empty-page',
  description: 'Signals the end only on an empty page: the page holding the last item still carries a token.',
  breaks: ['PAGE-18', 'PAGE-19', 'PAGE-20', 'PAGE-21'],
  rules: {
    next: (page, itemCount) => (itemCount > 0 ? { offset: page.offset + itemCount } : defaultNext(page)),
  },
});
