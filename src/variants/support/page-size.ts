/**
 * A `page_size` reading: the stack's integer parser decides what the text denotes; the reference then acts
 * on that integer (clamping per ruling 9), or the stack refuses the text with its own status. It acts on
 * every paginated operation (the query of a GET, the JSON body of a POST: faults/support/paging.ts).
 */
import { readingPageSize } from '../../faults/support/paging.js';
import type { FaultBehaviour } from '../../faults/types.js';

export interface PageSizeReading {
  /**
   * What the stack reads the text as: an integer literal the reference clamps, undefined when its parser
   * refuses the text, or `unset` when it cannot tell the value from no value (protobuf's 0).
   */
  parse: (text: string) => string | undefined | 'unset';
  /** The status the stack answers a refused text with. */
  refusal: number;
}

export function pageSizeReading({ parse, refusal }: PageSizeReading): FaultBehaviour {
  return {
    wrap: (handler) => readingPageSize(handler, (text) => {
      if (text === '') return { text };
      const value = parse(text);
      if (value === undefined) return { refuse: refusal };
      return { text: value === 'unset' ? undefined : value };
    }),
  };
}
