import type { Catalogue } from './types.js';
import { ruling } from './authority.js';

/**
 * The run context is the body (service.md §4.3 "the whole body is passed to the automation as context
 * data"; ruling 19), compared by JSON value (ruling 28): through the runs hook with numbers read as their
 * JSON text (two spellings of one exact value are equal; a value a double cannot hold is not), and strings
 * as the text they decode to. What a double holds and every string MUST arrive; what only an arbitrary-
 * precision reader keeps is SHOULD (RFC 8259 §6 lets a parser limit numbers to a double, and automation
 * engines on protobuf `Struct` or JavaScript do); `-0` and numbers beyond a double's range are recorded.
 */
const fidelity = (level: 'MUST' | 'SHOULD' | 'INFO', text: string) =>
  ({ section: '4.3', ruling: 28, level, text, group: 'context-fidelity', needs: ['webhooks.hmac', 'hooks.runs'], authority: ruling(28) }) as const;

export const contextFidelityRequirements = {
  'RUN-X01': fidelity('SHOULD', 'Integers beyond 2^53 (`9007199254740993`, a 30-digit integer, their negatives) SHOULD reach the context with every digit.'),
  'RUN-X02': fidelity('SHOULD', 'Decimals longer than a double holds (`0.1000000000000000055511151231257827`, 35 digits of π) SHOULD reach the context with every digit.'),
  'RUN-X03': fidelity('INFO', '`-0` (a valid JSON number, RFC 8259 §6): whether it reaches the context as `-0` or `0` is recorded.'),
  'RUN-X04': fidelity('INFO', 'Numbers beyond the range of a double (`1e400`, `-1e400`, `1e-400`): what reaches the context is recorded.'),
  'RUN-X05': fidelity('MUST', 'Escaped strings reach the context as the text they decode to: a surrogate pair `\\ud83d\\ude00`, `\\/`, `\\"`, `\\\\`, `\\b\\f\\n\\r\\t`, `\\u2028`, `\\u00e9` in a key.'),
  'RUN-X06': fidelity('MUST', 'Non-ASCII text sent as raw UTF-8 (combining marks, right-to-left script, emoji sequences, U+2028, U+FFFD, CJK) reaches the context unchanged, in keys and values.'),
  'RUN-X07': fidelity('MUST', 'Every number a double holds exactly reaches the context with its value: integers up to 2^53 (`9007199254740992`, `-9007199254740991`), decimals that round-trip through a double (`0.1`, `3.141592653589793`, `1.5e-10`, `123456.789`), in nested objects and arrays.'),
  'RUN-X08': fidelity('SHOULD', '`\\u0000` inside a string SHOULD reach the context (PostgreSQL `jsonb` cannot store it, so a service storing contexts there loses it).'),
} as const satisfies Catalogue;
