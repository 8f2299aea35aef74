import { paginationFault, parsePageSize } from '../support/pages.js';

export const pageSizeDefault50 = paginationFault({
  name: 'page-size-default-50',
  description: 'Uses 50 items per page when page_size is left out, where the default is 25.',
  breaks: ['PAGE-01'],
  rules: { pageSize: (values) => (values.length === 0 || values[0] === '' ? 50 : parsePageSize(values)) },
});
