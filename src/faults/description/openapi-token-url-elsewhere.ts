import { defineFault } from '../support/define.js';
import { objectAt, servedDescription } from '../support/served-description.js';

export const openapiTokenUrlElsewhere = defineFault({
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
});
