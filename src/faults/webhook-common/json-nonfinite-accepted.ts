import { acceptAs, webhookFault } from '../support/webhook-faults.js';

/**
 * The text with every bare `NaN`, `Infinity` and `-Infinity` outside strings read as a number, as Python's
 * `json.loads` does by default (its `parse_constant`); `null` stands for it here, since the reference's
 * JSON.parse cannot hold a non-finite number. Undefined when the text has none.
 */
function withoutNonFinite(text: string): string | undefined {
  let out = '';
  let inString = false;
  let found = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    const literal = ['-Infinity', 'Infinity', 'NaN'].find((word) => text.startsWith(word, i));
    if (!inString && literal !== undefined) {
      out += 'null';
      i += literal.length - 1;
      found = true;
      continue;
    }
    out += ch;
  }
  return found ? out : undefined;
}

export const jsonNonFiniteAccepted = webhookFault({
  name: 'json-nonfinite-accepted',
  description: 'Parses the body with a reader that takes `NaN`, `Infinity` and `-Infinity` as numbers (Python\'s `json.loads` default): JSON that RFC 8259 §6 forbids is accepted.',
  breaks: ['WH-X27'],
  handle: async (call) => {
    if (call.request.bodyExceeded) return call.next(call.request);
    const replaced = withoutNonFinite(call.request.body.toString('utf8'));
    return replaced === undefined ? call.next(call.request) : acceptAs(call, { body: Buffer.from(replaced, 'utf8') });
  },
});
