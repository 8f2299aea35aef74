import { paginationFault } from '../support/pages.js';

export const pageEmptyFirstTokenRefused = paginationFault({
  name: 'page-empty-first-token-refused',
  description: 'Refuses `page_token=` (empty) with 400, though the first request may send it empty.',
  breaks: ['PAGE-13', 'PAGE-17'],
  rules: { refuseEmptyFirstToken: true },
});
