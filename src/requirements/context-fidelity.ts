import type { Catalogue } from './types.js';
import { ruling } from './authority.js';

/**
 * The run context is the body, losslessly (service.md §4.3 "the whole body is passed to the automation as
 * context data"; ruling 19). Compared through the runs hook with numbers read as their JSON text (two
 * spellings of one exact value are equal; a value a double cannot hold is not), and strings as the text
 * they decode to.
 */
const fidelity = (level: 'MUST' | 'SHOULD', text: string) =>
  ({ section: '4.3', ruling: 19, level, text, group: 'context-fidelity', needs: ['webhooks.hmac', 'hooks.runs'], authority: ruling(28) }) as const;

export const contextFidelityRequirements = {
  'RUN-X01': fidelity('MUST', 'Integers beyond 2^53 (`9007199254740993`, a 30-digit integer, their negatives) reach the context with every digit.'),
  'RUN-X02': fidelity('MUST', 'Decimals longer than a double holds (`0.1000000000000000055511151231257827`, 35 digits of π) reach the context with every digit.'),
  'RUN-X03': fidelity('SHOULD', '`-0` (a valid JSON number, RFC 8259 §6) reaches the context as `-0`, not `0`.'),
  'RUN-X04': fidelity('SHOULD', 'Numbers beyond the range of a double (`1e400`, `-1e400`, `1e-400`) reach the context as written, not as null, infinity or 0.'),
  'RUN-X05': fidelity('MUST', 'Escaped strings reach the context as the text they decode to: `\\u0000`, a surrogate pair `\\ud83d\\ude00`, `\\/`, `\\"`, `\\\\`, `\\b\\f\\n\\r\\t`, `\\u2028`.'),
  'RUN-X06': fidelity('MUST', 'Non-ASCII text sent as raw UTF-8 (combining marks, right-to-left script, emoji sequences, U+2028, U+FFFD, CJK) reaches the context unchanged, in keys and values.'),
} as const satisfies Catalogue;
