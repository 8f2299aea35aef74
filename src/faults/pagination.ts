import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../spec-numbers.js';
import { defaultItems, defaultNext, paginationFault, parsePageSize } from './support/pages.js';
import { readingPageSize } from './support/paging.js';
import type { FaultTable } from './types.js';

/** Why a walk's later checks fail when the next-page token is misnamed. */
const WALKS = 'the token is under another name, so the walk stops after the first page';

/** Why the end-of-list checks fail when the last page omits the token. */
const END = 'the page carries no nextPageToken at all, so it is not ""';

export const FAULTS: FaultTable = [
  {
    name: 'page-early-end',
    description: 'Sends an empty nextPageToken as soon as fewer than a full page of items remain, so the last partial page is never reached.',
    breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17', 'PAGE-22'],
    ...paginationFault({
      rules: {
        next: (page) => {
          const end = Math.min(page.offset + page.size, page.total);
          return page.total - end < page.size ? 'end' : defaultNext(page);
        },
      },
    }),
  },
  {
    name: 'page-empty-first-token-refused',
    description: 'Refuses `page_token=` (empty) with 400, though the first request may send it empty.',
    breaks: ['PAGE-13', 'PAGE-17'],
    ...paginationFault({ rules: { refuseEmptyFirstToken: true } }),
  },
  {
    name: 'page-items-unwrapped',
    description: 'Lists the entitlement objects bare, without the `appEntitlement` wrapper named after their kind.',
    breaks: ['PAGE-26'],
    ...paginationFault({
      rules: {
        body: (list, nextPageToken) => ({ list: list.map((item) => (item as { appEntitlement: unknown }).appEntitlement), nextPageToken }),
      },
    }),
  },
  {
    name: 'page-lagging-end',
    description: 'Decides "more pages" by whether the page is full: when the items exactly fill the last page it still sends a token, which leads to an empty page.',
    breaks: ['PAGE-19', 'PAGE-20'],
    ...paginationFault({
      rules: {
        next: (page, itemCount) => (itemCount > 0 && itemCount === page.size ? { offset: page.offset + itemCount } : defaultNext(page)),
      },
    }),
  },
  {
    name: 'page-next-token-snake-case',
    description: 'Names the token `next_page_token` (snake case) instead of `nextPageToken`.',
    breaks: ['PAGE-27', 'PAGE-23'],
    explains: {
      'PAGE-14': WALKS,
      'PAGE-15': WALKS,
      'PAGE-16': WALKS,
      'PAGE-17': WALKS,
      'PAGE-18': END,
      'PAGE-19': END,
      'PAGE-20': END,
      'PAGE-21': END,
      'PAGE-22': WALKS,
      'PAGE-25': END,
      'PAGE-28': 'no token to reuse on another app',
    },
    ...paginationFault({ rules: { body: (list, nextPageToken) => ({ list, next_page_token: nextPageToken }) } }),
  },
  {
    name: 'page-null-end-token',
    description: 'Sends `"nextPageToken": null` at the end instead of an empty string.',
    breaks: ['PAGE-18', 'PAGE-19', 'PAGE-20', 'PAGE-21', 'PAGE-23', 'PAGE-25'],
    ...paginationFault({ rules: { next: (page) => (defaultNext(page) === 'end' ? null : defaultNext(page)) } }),
  },
  {
    name: 'page-overlap',
    description: 'Starts every page after the first one item early (an inclusive cursor): the last item of a page shows again on the next.',
    breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17'],
    ...paginationFault({
      rules: {
        items: (app, page) => (page.offset > 0 ? [app.entitlements[page.offset - 1]!, ...defaultItems(app, page)] : defaultItems(app, page)),
      },
    }),
  },
  {
    name: 'page-size-above-max-as-default',
    description: 'Falls back to the default 25 for a page_size above 100 instead of clamping it to 100.',
    breaks: ['PAGE-07', 'PAGE-08', 'PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          const size = parsePageSize(values);
          return size !== undefined && values.length === 1 && Number(values[0]) > 100 ? PAGE_SIZE_DEFAULT : size;
        },
      },
    }),
  },
  {
    name: 'page-size-below-min-honoured',
    description: 'Honours page_size 1 to 9 as given: only values below 1 are raised to 10.',
    breaks: ['PAGE-03', 'PAGE-04'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          const size = parsePageSize(values);
          const given = Number(values[0]);
          return size !== undefined && values.length === 1 && given >= 1 && given < 10 ? given : size;
        },
      },
    }),
  },
  {
    name: 'page-size-bounds-exclusive',
    description: 'Accepts page_size only strictly between 10 and 100 (`10 < n < 100`) and uses the default 25 for everything else, the bounds included.',
    breaks: ['PAGE-03', 'PAGE-04', 'PAGE-05', 'PAGE-06', 'PAGE-07', 'PAGE-08', 'PAGE-09', 'PAGE-10', 'PAGE-16', 'PAGE-21', 'PAGE-30', 'PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          const size = parsePageSize(values);
          if (size === undefined || values.length === 0 || values[0] === '') return size;
          const given = Number(values[0]);
          return given > 10 && given < 100 ? given : PAGE_SIZE_DEFAULT;
        },
      },
    }),
  },
  {
    name: 'page-size-default-50',
    description: 'Uses 50 items per page when page_size is left out, where the default is 25.',
    breaks: ['PAGE-01'],
    ...paginationFault({ rules: { pageSize: (values) => (values.length === 0 || values[0] === '' ? 50 : parsePageSize(values)) } }),
  },
  /**
   * Ruling 32's MUST side, grpc-gateway 1.x's reading: page_size stored in an `int32` with a silent wrap, so
   * 4294967306 is 10 and 2147483648 is negative (then 10). On every paginated operation, query or body.
   */
  {
    name: 'page-size-int32-wrap',
    description: 'Stores page_size in a 32-bit integer that wraps silently (grpc-gateway 1.x): 4294967306 acts as 10, 2147483648 as a negative value (10), where any value above 100 acts as 100.',
    breaks: ['PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
    wrap: (handler) => readingPageSize(handler, (text) => ({ text: /^-?\d+$/.test(text) ? String(BigInt.asIntN(32, BigInt(text))) : text })),
  },
  {
    name: 'page-size-lenient-parse',
    description: 'Reads page_size with parseInt: `abc` becomes the default, `12.5` becomes 12 and `1e2` becomes 1 (so 10), where a non-integer should get 400 and an accepted form act as the integer it denotes.',
    breaks: ['PAGE-X06', 'PAGE-11', 'PAGE-12', 'PAGE-X01', 'PAGE-X02', 'PAGE-X03'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          if (values.length > 1) return undefined;
          const parsed = Number.parseInt(values[0] ?? '', 10);
          return Number.isNaN(parsed) ? PAGE_SIZE_DEFAULT : Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, parsed));
        },
      },
    }),
  },
  {
    name: 'page-size-number-coercion',
    description: 'Reads page_size with Number() and checks it is an integer: `1e2` passes as 100, where only an integer literal should.',
    breaks: ['PAGE-X03'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          if (values.length > 1) return undefined;
          const text = values[0];
          if (text === undefined || text === '') return PAGE_SIZE_DEFAULT;
          const value = Number(text);
          return Number.isInteger(value) ? Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, value)) : undefined;
        },
      },
    }),
  },
  /**
   * Ruling 27's MUST side: a service may accept `+50` or `1e2`, but then it must act as the number they
   * denote. This one lets every text Number() reads as an integer through and pages by 25 unless the text is
   * all digits (a validator and a parser that disagree).
   */
  {
    name: 'page-size-sign-as-default',
    description: 'Accepts any page_size that Number() reads as an integer but acts on it only when it is an integer literal: ` 50`, `+50` and `1e2` give pages of 25.',
    breaks: ['PAGE-X06', 'PAGE-X03'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          const text = values.length === 1 ? values[0]! : undefined;
          if (text === undefined || /^-?\d*$/.test(text)) return parsePageSize(values);
          return Number.isInteger(Number(text)) ? PAGE_SIZE_DEFAULT : undefined;
        },
      },
    }),
  },
  {
    name: 'page-size-zero-as-default',
    description: 'Treats page_size 0 and negative values as "not given" (the default 25) instead of clamping them to 10.',
    breaks: ['PAGE-30', 'PAGE-09', 'PAGE-10'],
    ...paginationFault({
      rules: {
        pageSize: (values) => {
          const size = parsePageSize(values);
          return size !== undefined && values.length === 1 && Number(values[0]) <= 0 ? PAGE_SIZE_DEFAULT : size;
        },
      },
    }),
  },
  /** Ruling 33's MUST side: 0 acts as 10 or as 25, never as "no limit" (a common reading of 0 in SQL-backed lists). */
  {
    name: 'page-size-zero-unlimited',
    description: 'Reads page_size 0 as "no limit" and returns every item on one page, where 0 acts as 10 (or as the default 25).',
    breaks: ['PAGE-02', 'PAGE-30'],
    ...paginationFault({
      rules: {
        pageSize: (values) => (values.length === 1 && /^0+$/.test(values[0]!) ? Number.MAX_SAFE_INTEGER : parsePageSize(values)),
      },
    }),
  },
  {
    name: 'page-skip',
    description: 'Skips the first item of every page after the first (the cursor points past the item it names).',
    breaks: ['PAGE-14', 'PAGE-15', 'PAGE-16', 'PAGE-17', 'PAGE-22'],
    ...paginationFault({
      rules: {
        items: (app, page) => (page.offset > 0 ? defaultItems(app, page).slice(1) : defaultItems(app, page)),
      },
    }),
  },
  {
    name: 'page-token-not-validated',
    description: 'Serves the first page for a page_token it cannot read (made up, or from another app\'s listing) instead of 400.',
    breaks: ['PAGE-28', 'PAGE-29'],
    ...paginationFault({ rules: { invalidToken: 'first' } }),
  },
  {
    name: 'page-trailing-empty-page',
    description: 'Signals the end only on an empty page: the page holding the last item still carries a token.',
    breaks: ['PAGE-18', 'PAGE-19', 'PAGE-20', 'PAGE-21'],
    ...paginationFault({
      rules: {
        next: (page, itemCount) => (itemCount > 0 ? { offset: page.offset + itemCount } : defaultNext(page)),
      },
    }),
  },
];
