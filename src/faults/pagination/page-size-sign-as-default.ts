import { parsePageSize, paginationFault } from '../support/pages.js';
import { PAGE_SIZE_DEFAULT } from '../../spec-numbers.js';

/**
 * Ruling 27's MUST side: a service may accept `+50` or `1e2`, but then it must act as the number they
 * denote. This one lets every text Number() reads as an integer through and pages by 25 unless the text is
 * all digits (a validator and a parser that disagree).
 */
export const pageSizeSignAsDefault = paginationFault({
  name: 'page-size-sign-as-default',
  description: 'Accepts any page_size that Number() reads as an integer but acts on it only when it is an integer literal: ` 50`, `+50` and `1e2` give pages of 25.',
  breaks: ['PAGE-X06', 'PAGE-X03'],
  rules: {
    pageSize: (values) => {
      const text = values.length === 1 ? values[0]! : undefined;
      if (text === undefined || /^-?\d*$/.test(text)) return parsePageSize(values);
      return Number.isInteger(Number(text)) ? PAGE_SIZE_DEFAULT : undefined;
    },
  },
});
