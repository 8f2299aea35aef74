import { paginationFault, parsePageSize } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT } from '../../spec-numbers.js';

export const pageSizeBoundsExclusive = paginationFault({
  name: 'page-size-bounds-exclusive',
  description: 'Accepts page_size only strictly between 10 and 100 (`10 < n < 100`) and uses the default 25 for everything else, the bounds included.',
  breaks: ['PAGE-03', 'PAGE-04', 'PAGE-05', 'PAGE-06', 'PAGE-07', 'PAGE-08', 'PAGE-09', 'PAGE-10', 'PAGE-16', 'PAGE-21', 'PAGE-30', 'PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
  rules: {
    pageSize: (values) => {
      const size = parsePageSize(values);
      if (size === undefined || values.length === 0 || values[0] === '') return size;
      const given = Number(values[0]);
      return given > 10 && given < 100 ? given : PAGE_SIZE_DEFAULT;
    },
  },
});
