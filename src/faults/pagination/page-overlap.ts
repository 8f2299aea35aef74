import { defaultItems, paginationFault } from '../support/pages.js';

export const pageOverlap = paginationFault({
  name: 'page-overlap',
  description: 'Starts every page after the first one item early (an inclusive cursor): the last item of a page shows again on the next.',
  breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17'],
  rules: {
    items: (app, page) => (page.offset > 0 ? [app.entitlements[page.offset - 1]!, ...defaultItems(app, page)] : defaultItems(app, page)),
  },
});
