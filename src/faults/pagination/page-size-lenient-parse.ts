import { paginationFault } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../spec-numbers.js';

export const pageSizeLenientParse = paginationFault({
  name: 'page-size-lenient-parse',
  description: 'Reads page_size with parseInt: `abc` becomes the default, `12.5` becomes 12 and `1e2` becomes 1 (so 10), where a non-integer should get 400 and an accepted form act as the integer it denotes.',
  breaks: ['PAGE-X06', 'PAGE-11', 'PAGE-12', 'PAGE-X01', 'PAGE-X02', 'PAGE-X03'],
  rules: {
    pageSize: (values) => {
      if (values.length > 1) return undefined;
      const parsed = Number.parseInt(values[0] ?? '', 10);
      return Number.isNaN(parsed) ? PAGE_SIZE_DEFAULT : Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, parsed));
    },
  },
});
