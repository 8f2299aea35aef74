import { defineFault } from '../support/define.js';
import { contextTextRunner } from '../support/context.js';

export const runnerContextLatin1 = defineFault({
  name: 'runner-context-latin1',
  description: 'Reads the body\'s bytes as Latin-1 before handing it on: raw non-ASCII UTF-8 text reaches the automation as mojibake (`é` as `Ã©`).',
  breaks: ['RUN-X06'],
  ports: contextTextRunner((json) => Buffer.from(json, 'utf8').toString('latin1')),
});
