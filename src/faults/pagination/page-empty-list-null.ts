import { paginationFault } from '../support/pages.js';

export const pageEmptyListNull = paginationFault({
  name: 'page-empty-list-null',
  description: 'Answers `"list": null` for an app without entitlements, where the list is an empty array.',
  breaks: ['PAGE-24'],
  explains: {
    'PAGE-25': 'the check reads nextPageToken from a page whose list must be an array first',
  },
  rules: { body: (list, nextPageToken) => ({ list: list.length === 0 ? null : list, nextPageToken }) },
});
