import { defineVariant } from '../define.js';
import { pageSizeReading } from '../support/page-size.js';

export const pageSizeZeroDefault = defineVariant(
  {
    area: 'pagination',
    stacks: 'protobuf-based services (grpc-gateway: an int32 field cannot tell 0 from unset); the real service\'s own description ("A value of 0 returns the default page size (currently 25)")',
    touches: ['PAGE-02', 'OPS-08'],
  },
  pageSizeReading({
    name: 'page-size-zero-default',
    description: 'Reads page_size 0 as no page size (protobuf\'s unset int32), so 0 gives the default page of 25 (ruling 33); negatives and 1–9 still act as 10.',
    warns: ['PAGE-30', 'OPS-09'],
    parse: (text) => (/^[+-]?0+$/.test(text) ? 'unset' : text),
    refusal: 400,
  }),
);
