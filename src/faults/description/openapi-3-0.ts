import { defineFault } from '../support/define.js';
import { servedDescription } from '../support/served-description.js';

export const openapi30 = defineFault({
  name: 'openapi-3-0',
  description: 'Serves its OpenAPI description saying `"openapi": "3.0.3"` (the document is otherwise unchanged).',
  breaks: ['DESC-01'],
  wrap: (handler) => servedDescription(handler, (doc) => ({ ...doc, openapi: '3.0.3' })),
});
