import { defineFault } from '../support/define.js';
import { contextRunner, mapLeaves } from '../support/context.js';

export const runnerContextAsciiOnly = defineFault({
  name: 'runner-context-ascii-only',
  description: 'Passes the context through an ASCII-only channel: non-ASCII text in the body reaches the automation as `?`.',
  breaks: ['RUN-02'],
  ports: contextRunner((context) => mapLeaves(context, { string: (text) => text.replace(/[^\x00-\x7f]/gu, '?') })),
});
