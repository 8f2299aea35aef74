import { defaultItems, paginationFault } from '../support/pages.js';

export const pageSkip = paginationFault({
  name: 'page-skip',
  description: 'Skips the first item of every page after the first (the cursor points past the item it names).',
  breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17', 'PAGE-22'],
  rules: {
    items: (app, page) => (page.offset > 0 ? defaultItems(app, page).slice(1) : defaultItems(app, page)),
  },
});
