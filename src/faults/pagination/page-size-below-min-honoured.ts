import { paginationFault, parsePageSize } from '../support/pages.js';

export const pageSizeBelowMinHonoured = paginationFault({
  name: 'page-size-below-min-honoured',
  description: 'Honours page_size 1 to 9 as given: only values below 1 are raised to 10.',
  breaks: ['PAGE-03', 'PAGE-04'],
  rules: {
    pageSize: (values) => {
      const size = parsePageSize(values);
      const given = Number(values[0]);
      return size !== undefined && values.length === 1 && given >= 1 && given < 10 ? given : size;
    },
  },
});
