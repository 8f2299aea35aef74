import { defaultNext, paginationFault } from '../support/pages.js';

export const pageNullEndToken = paginationFault({
  name: 'page-null-end-token',
  description: 'Sends `"nextPageToken": null` at the end instead of an empty string.',
  breaks: ['PAGE-18', 'PAGE-19', 'PAGE-20', 'PAGE-21', 'PAGE-23', 'PAGE-25'],
  rules: { next: (page) => (defaultNext(page) === 'end' ? null : defaultNext(page)) },
});
