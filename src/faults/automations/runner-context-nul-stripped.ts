import { defineFault } from '../support/define.js';
import { contextRunner, mapLeaves } from '../support/context.js';

export const runnerContextNulStripped = defineFault({
  name: 'runner-context-nul-stripped',
  description: 'Stores the context where text cannot hold U+0000 (as PostgreSQL text and jsonb cannot) and drops it: `"a\\u0000b"` reaches the automation as `"ab"`.',
  breaks: ['RUN-X08'],
  // Only bodies holding a NUL change; the rest keep their exact text.
  ports: contextRunner((context) => mapLeaves(context, { string: (text) => text.replace(/\u0000/g, '') }), (json) => /\\u0000/i.test(json)),
});
