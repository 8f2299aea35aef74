import { defineFault } from '../../faults/support/define.js';
import { renderingListPages } from '../../faults/support/paging.js';
import { defineVariant } from '../define.js';

export const pageEmptyListNull = defineVariant(
  {
    area: 'pagination',
    stacks: 'protobuf JSON (grpc-gateway\'s marshaller with EmitUnpopulated: an empty repeated field as null); the real service\'s own description marks `list` nullable',
    touches: ['PAGE-25'],
  },
  defineFault({
    name: 'page-empty-list-null',
    description: 'Answers `"list": null` on an empty page, where service.md shows an empty array (ruling 34 allows null or absent; `[]` SHOULD be sent).',
    breaks: ['PAGE-24'],
    wrap: (handler) => renderingListPages(handler, (page) => (Array.isArray(page.list) && page.list.length === 0 ? { ...page, list: null } : page)),
  }),
);
