import { defineFault } from '../support/define.js';
import { objectAt, servedDescription } from '../support/served-description.js';

export const openapiOwnerIdsUntagged = defineFault({
  name: 'openapi-owner-ids-untagged',
  description: 'Its OpenAPI description tags the owner-IDs operation `Apps` instead of `App Owner` (its operation ID unchanged).',
  breaks: ['DESC-03'],
  wrap: (handler) =>
    servedDescription(handler, (doc) => {
      const operation = objectAt(doc, 'paths', '/api/v1/apps/{app_id}/ownerids', 'get');
      if (operation) operation.tags = ['Apps'];
      return doc;
    }),
});
