import { contextTextRunner } from '../../faults/support/context.js';
import { defineFault } from '../../faults/support/define.js';
import { defineVariant } from '../define.js';

/** Strings (skipped, escapes included) or numbers of a JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Python's `json` reading of a number: an integer token stays exact (Python ints are unbounded, and `-0` is
 * the int 0); a token with a fraction or an exponent becomes a float, written back at its shortest, and a
 * float beyond a double's range (inf) has no JSON form, so it arrives as null.
 */
function pythonNumber(token: string): string {
  if (token.startsWith('"')) return token;
  if (/^-?\d+$/.test(token)) return token === '-0' ? '0' : token;
  const value = Number(token);
  return Number.isFinite(value) ? JSON.stringify(value) : 'null';
}

export const contextDecimalsAsFloats = defineVariant(
  { area: 'automations', stacks: 'Python `json.loads` (FastAPI `await request.json()`): unbounded ints, floats for every number with a fraction or an exponent', touches: ['RUN-X03', 'RUN-X04', 'RUN-X07'] },
  defineFault({
    name: 'context-decimals-as-floats',
    description: 'Reads the context\'s integers exactly and its decimals as doubles (RFC 8259 §6 allows it): a decimal beyond a double\'s precision loses digits, `-0` becomes 0, `1e400` arrives as null.',
    breaks: ['RUN-X02'],
    ports: contextTextRunner((contextJson) => contextJson.replace(TOKENS, pythonNumber)),
  }),
);
