import { paginationFault } from '../support/pages.js';

const WALKS = 'the token is under another name, so the walk stops after the first page';
const END = 'the page carries no nextPageToken at all, so it is not ""';

export const pageNextTokenSnakeCase = paginationFault({
  name: 'page-next-token-snake-case',
  description: 'Names the token `next_page_token` (snake case) instead of `nextPageToken`.',
  breaks: ['PAGE-27', 'PAGE-23'],
  explains: {
    'PAGE-14': WALKS,
    'PAGE-15': WALKS,
    'PAGE-16': WALKS,
    'PAGE-17': WALKS,
    'PAGE-18': END,
    'PAGE-19': END,
    'PAGE-20': END,
    'PAGE-21': END,
    'PAGE-22': WALKS,
    'PAGE-25': END,
    'PAGE-28': 'no token to reuse on another app',
  },
  rules: { body: (list, nextPageToken) => ({ list, next_page_token: nextPageToken }) },
});
