import { defineFault } from '../support/define.js';
import { contextTextRunner } from '../support/context.js';

/** A character outside the BMP, raw or as an escaped surrogate pair. */
const OUTSIDE_BMP = /[\u{10000}-\u{10FFFF}]|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/gu;

/**
 * Escapes must decode to the characters they name (ruling 28, MUST): a surrogate pair is one character
 * outside the BMP, which a store limited to three UTF-8 bytes a character cannot hold.
 */
export const runnerContextUtf8mb3 = defineFault({
  name: 'runner-context-utf8mb3',
  description: 'Stores the context in a MySQL `utf8` (utf8mb3) column: every character outside the BMP (an emoji, whether sent raw or as the escape `\\ud83d\\ude00`) reaches the automation as `?`.',
  breaks: ['RUN-X05'],
  explains: {
    'RUN-X06': 'its raw text holds an emoji sequence outside the BMP',
    'RUN-02': 'its nested body holds an emoji outside the BMP',
  },
  ports: contextTextRunner((json) => json.replace(OUTSIDE_BMP, '?')),
});
