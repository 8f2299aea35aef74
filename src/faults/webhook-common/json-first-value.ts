import { acceptAs, webhookFault } from '../support/webhook-faults.js';

/**
 * The first JSON value of the text and whether anything follows it, as a streaming decoder reads one value
 * (Go's json.Decoder.Decode): the shortest prefix ending at a closing bracket that parses.
 */
function firstValue(text: string): string | undefined {
  for (let end = 0; end < text.length; end += 1) {
    const ch = text[end];
    if (ch !== '}' && ch !== ']') continue;
    try {
      JSON.parse(text.slice(0, end + 1));
      return text.slice(0, end + 1);
    } catch {
      // not the end of the first value yet
    }
  }
  return undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const jsonFirstValue = webhookFault({
  name: 'json-first-value',
  description: 'Decodes the first JSON value of the body and ignores what follows it: `{…}x` and `{…} {…}` are accepted.',
  breaks: ['WH-X06', 'WH-X07'],
  handle: async (call) => {
    const text = call.request.body.toString('utf8');
    if (call.request.bodyExceeded || parses(text)) return call.next(call.request);
    const first = firstValue(text);
    return first === undefined ? call.next(call.request) : acceptAs(call, { body: Buffer.from(first, 'utf8') });
  },
});
