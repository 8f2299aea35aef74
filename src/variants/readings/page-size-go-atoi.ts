import { defineVariant } from '../define.js';
import { pageSizeReading } from '../support/page-size.js';

/** Go's `int` on 64-bit platforms: `strconv.Atoi` refuses a value beyond it with ErrRange. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export const pageSizeGoAtoi = defineVariant(
  { area: 'pagination', stacks: 'Go `strconv.Atoi`/`ParseInt`, grpc-gateway query parameters', touches: ['PAGE-X05', 'PAGE-X06', 'PAGE-33', 'PAGE-34', 'PAGE-35'] },
  pageSizeReading({
    name: 'page-size-go-atoi',
    description: 'Reads page_size with a signed 64-bit decimal parser: `+50` is 50; a value beyond the int64 range (ErrRange) or anything that is not an optionally signed integer gets 400.',
    warns: [],
    parse: (text) => {
      if (!/^[+-]?\d+$/.test(text)) return undefined;
      const value = BigInt(text);
      return value < INT64_MIN || value > INT64_MAX ? undefined : String(value);
    },
    refusal: 400,
  }),
);
