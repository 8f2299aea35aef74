import { paginationFault } from '../support/pages.js';

export const pageItemsUnwrapped = paginationFault({
  name: 'page-items-unwrapped',
  description: 'Lists the entitlement objects bare, without the `appEntitlement` wrapper named after their kind.',
  breaks: ['PAGE-26'],
  rules: {
    body: (list, nextPageToken) => ({ list: list.map((item) => (item as { appEntitlement: unknown }).appEntitlement), nextPageToken }),
  },
});
