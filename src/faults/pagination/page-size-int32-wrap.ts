import { defineFault } from '../support/define.js';
import { readingPageSize } from '../support/paging.js';

/**
 * Ruling 32's MUST side, grpc-gateway 1.x's reading: page_size stored in an `int32` with a silent wrap, so
 * 4294967306 is 10 and 2147483648 is negative (then 10). On every paginated operation, query or body.
 */
export const pageSizeInt32Wrap = defineFault({
  name: 'page-size-int32-wrap',
  description: 'Stores page_size in a 32-bit integer that wraps silently (grpc-gateway 1.x): 4294967306 acts as 10, 2147483648 as a negative value (10), where any value above 100 acts as 100.',
  breaks: ['PAGE-31', 'PAGE-32', 'PAGE-33', 'PAGE-34'],
  wrap: (handler) => readingPageSize(handler, (text) => ({ text: /^-?\d+$/.test(text) ? String(BigInt.asIntN(32, BigInt(text))) : text })),
});
