import { defineFault } from '../support/define.js';
import { contextRunner } from '../support/context.js';

export const runnerContextJsNumbers = defineFault({
  name: 'runner-context-js-numbers',
  area: 'automations',
  description: 'Hands the automation the parsed body re-serialised (JSON.parse, then JSON.stringify): integers beyond 2^53 and long decimals lose digits, -0 becomes 0, 1e400 becomes null.',
  breaks: ['RUN-X01', 'RUN-X02'],
  // The parsed value without the body's text: the runs hook writes it with JSON.stringify.
  ports: contextRunner((context) => context),
});
