import { defineVariant } from '../define.js';
import { pageSizeReading } from '../support/page-size.js';

export const pageSizeGoAtoi = defineVariant(
  { area: 'pagination', stacks: 'Go `strconv.Atoi`/`ParseInt`, grpc-gateway query parameters', touches: ['PAGE-X05', 'PAGE-X06'] },
  pageSizeReading({
    name: 'page-size-go-atoi',
    description: 'Reads page_size with a signed decimal parser: `+50` is 50; anything else that is not an optionally signed integer gets 400.',
    warns: [],
    parse: (text) => (/^[+-]?\d+$/.test(text) ? Number.parseInt(text, 10) : undefined),
    refusal: 400,
  }),
);
