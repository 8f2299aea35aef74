import { paginationFault } from '../support/pages.js';

export const pageTokenNotValidated = paginationFault({
  name: 'page-token-not-validated',
  description: 'Serves the first page for a page_token it cannot read (made up, or from another app\'s listing) instead of 400.',
  breaks: ['PAGE-28', 'PAGE-29'],
  rules: { invalidToken: 'first' },
});
