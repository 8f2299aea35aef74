import { paginationFault, parsePageSize } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT } from '../../spec-numbers.js';

export const pageSizeZeroAsDefault = paginationFault({
  name: 'page-size-zero-as-default',
  description: 'Treats page_size 0 and negative values as "not given" (the default 25) instead of clamping them to 10.',
  breaks: ['PAGE-30', 'PAGE-09', 'PAGE-10'],
  rules: {
    pageSize: (values) => {
      const size = parsePageSize(values);
      return size !== undefined && values.length === 1 && Number(values[0]) <= 0 ? PAGE_SIZE_DEFAULT : size;
    },
  },
});
