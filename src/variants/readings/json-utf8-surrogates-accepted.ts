import { acceptAs, webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

/** A surrogate code point (U+D800–U+DFFF) written as UTF-8 bytes: 0xED, then 0xA0–0xBF, then a continuation byte. */
const ENCODED_SURROGATE = Buffer.from([0xed]);

/**
 * The body with each UTF-8-encoded surrogate written as the JSON escape of that code point: the same JSON value
 * a decoder with `surrogatepass` reads (a string holding a lone surrogate), in bytes the reference parses.
 * Outside a string the escape is as invalid as the bytes were, so the reference still refuses that body.
 */
function escapeSurrogates(body: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(ENCODED_SURROGATE); at !== -1 && at + 2 < body.length; at = body.indexOf(ENCODED_SURROGATE, at + 1)) {
    const second = body[at + 1]!;
    const third = body[at + 2]!;
    if (second < 0xa0 || second > 0xbf || (third & 0xc0) !== 0x80) continue;
    const codePoint = 0xd000 | ((second & 0x3f) << 6) | (third & 0x3f);
    parts.push(body.subarray(from, at), Buffer.from(`\\u${codePoint.toString(16)}`));
    from = at + 3;
  }
  return parts.length === 0 ? undefined : Buffer.concat([...parts, body.subarray(from)]);
}

export const jsonUtf8SurrogatesAccepted = defineVariant(
  { area: 'webhook-common', stacks: 'Python `json.loads(bytes)` (FastAPI/Starlette `await request.json()`: it decodes UTF-8 with `surrogatepass`)' },
  webhookFault({
    name: 'json-utf8-surrogates-accepted',
    description: 'Reads a UTF-8-encoded surrogate (0xED 0xA0 0x80) inside a JSON string as a lone surrogate instead of refusing the body as invalid UTF-8; other invalid bytes are still refused.',
    breaks: ['WH-X05'],
    handle: async (call) => {
      const escaped = escapeSurrogates(call.request.body);
      return escaped === undefined ? call.next(call.request) : acceptAs(call, { body: escaped });
    },
  }),
);
