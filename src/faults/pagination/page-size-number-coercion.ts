import { paginationFault } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../spec-numbers.js';

export const pageSizeNumberCoercion = paginationFault({
  name: 'page-size-number-coercion',
  description: 'Reads page_size with Number() and checks it is an integer: `1e2` passes as 100, where only an integer literal should.',
  breaks: ['PAGE-X03'],
  rules: {
    pageSize: (values) => {
      if (values.length > 1) return undefined;
      const text = values[0];
      if (text === undefined || text === '') return PAGE_SIZE_DEFAULT;
      const value = Number(text);
      return Number.isInteger(value) ? Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, value)) : undefined;
    },
  },
});
