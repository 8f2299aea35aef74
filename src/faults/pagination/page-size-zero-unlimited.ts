import { paginationFault, parsePageSize } from '../support/pages.js';

/** Ruling 33's MUST side: 0 acts as 10 or as 25, never as "no limit" (a common reading of 0 in SQL-backed lists). */
export const pageSizeZeroUnlimited = paginationFault({
  name: 'page-size-zero-unlimited',
  description: 'Reads page_size 0 as "no limit" and returns every item on one page, where 0 acts as 10 (or as the default 25).',
  breaks: ['PAGE-02', 'PAGE-30'],
  rules: {
    pageSize: (values) => (values.length === 1 && /^0+$/.test(values[0]!) ? Number.MAX_SAFE_INTEGER : parsePageSize(values)),
  },
});
