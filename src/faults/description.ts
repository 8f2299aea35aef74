import { objectAt, servedDescription } from './support/served-description.js';
import type { FaultTable } from './types.js';

export const FAULTS: FaultTable = [
  {
    name: 'openapi-3-0',
    description: 'Serves its OpenAPI description saying `"openapi": "3.0.3"` (the document is otherwise unchanged).',
    breaks: ['DESC-01'],
    wrap: (handler) => servedDescription(handler, (doc) => ({ ...doc, openapi: '3.0.3' })),
  },
  {
    name: 'openapi-owner-ids-untagged',
    description: 'Its OpenAPI description tags the owner-IDs operation `Apps` instead of `App Owner` (its operation ID unchanged).',
    breaks: ['DESC-03'],
    wrap: (handler) =>
      servedDescription(handler, (doc) => {
        const operation = objectAt(doc, 'paths', '/api/v1/apps/{app_id}/ownerids', 'get');
        if (operation) operation.tags = ['Apps'];
        return doc;
      }),
  },
  {
    name: 'openapi-token-url-elsewhere',
    description: 'Its OpenAPI description names `/oauth2/token` as the client-credentials token URL, with a scope, instead of `/auth/v1/token` and none.',
    breaks: ['DESC-02'],
    wrap: (handler) =>
      servedDescription(handler, (doc) => {
        for (const scheme of Object.values(objectAt(doc, 'components', 'securitySchemes') ?? {})) {
          const flow = objectAt(scheme, 'flows', 'clientCredentials');
          if (flow) Object.assign(flow, { tokenUrl: '/oauth2/token', scopes: { 'api:read': 'read the API' } });
        }
        return doc;
      }),
  },
];
