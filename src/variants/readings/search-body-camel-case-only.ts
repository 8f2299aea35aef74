import { defineFault } from '../../faults/support/define.js';
import { isSearch, withSearchBody } from '../../faults/support/operations.js';
import { defineVariant } from '../define.js';

export const searchBodyCamelCaseOnly = defineVariant(
  {
    area: 'operations',
    stacks: 'a handler that reads the JSON body by the property names its OpenAPI description declares (Express `req.body.pageSize`, generated server stubs); protobuf\'s JSON mapping takes both spellings',
    touches: ['OPS-15'],
  },
  defineFault({
    name: 'search-body-camel-case-only',
    description: 'Reads a search\'s page size and token only under the description\'s camelCase names (pageSize, pageToken): page_size and page_token in the body are ignored; ruling 34 makes service.md\'s spelling a SHOULD.',
    breaks: ['OPS-15'],
    wrap: (handler) => async (request) => {
      if (!isSearch(request)) return handler(request);
      return handler(withSearchBody(request, (body) => {
        delete body.page_size;
        delete body.page_token;
      }));
    },
  }),
);
