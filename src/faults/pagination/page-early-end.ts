import { defaultNext, paginationFault } from '../support/pages.js';

export const pageEarlyEnd = paginationFault({
  name: 'page-early-end',
  description: 'Sends an empty nextPageToken as soon as fewer than a full page of items remain, so the last partial page is never reached.',
  breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17', 'PAGE-22'],
  rules: {
    next: (page) => {
      const end = Math.min(page.offset + page.size, page.total);
      return page.total - end < page.size ? 'end' : defaultNext(page);
    },
  },
});
