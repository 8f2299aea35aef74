import { defineFault } from '../support/define.js';
import { contextRunner, mapLeaves } from '../support/context.js';

const SIGNIFICANT_DIGITS = 6;

/**
 * Ruling 28's MUST side: an engine may hold numbers as doubles, never as less. This one formats them with
 * six significant digits on the way to the automation, so `0.1 + 0.2` and 2^53 lose digits a double keeps.
 */
export const runnerContextSixDigits = defineFault({
  name: 'runner-context-six-digits',
  description: 'Writes every number of the context with six significant digits (C\'s `%g`): `3.141592653589793` reaches the automation as `3.14159`, 2^53 as `9.00720e15`.',
  breaks: ['RUN-X07', 'RUN-X01', 'RUN-X02'],
  explains: { 'RUN-02': 'its nested body holds 0.1 + 0.2 (0.30000000000000004), which arrives as 0.3' },
  ports: contextRunner((context) => mapLeaves(context, { number: (value) => Number(value.toPrecision(SIGNIFICANT_DIGITS)) })),
});
