import { paginationFault, parsePageSize } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT } from '../../spec-numbers.js';

export const pageSizeAboveMaxAsDefault = paginationFault({
  name: 'page-size-above-max-as-default',
  description: 'Falls back to the default 25 for a page_size above 100 instead of clamping it to 100.',
  breaks: ['PAGE-07', 'PAGE-08', 'PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
  rules: {
    pageSize: (values) => {
      const size = parsePageSize(values);
      return size !== undefined && values.length === 1 && Number(values[0]) > 100 ? PAGE_SIZE_DEFAULT : size;
    },
  },
});
