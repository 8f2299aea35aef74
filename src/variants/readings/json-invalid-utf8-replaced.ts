import { isUtf8 } from 'node:buffer';
import { acceptAs, webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

export const jsonInvalidUtf8Replaced = defineVariant(
  {
    area: 'webhook-common',
    stacks: 'Go encoding/json (`json.Valid` and `json.Unmarshal` do not validate UTF-8 inside strings; an invalid byte decodes to U+FFFD)',
  },
  webhookFault({
    name: 'json-invalid-utf8-replaced',
    description: 'Accepts a JSON body whose strings hold invalid UTF-8 (a stray byte, an overlong form, an encoded surrogate), reading each invalid sequence as U+FFFD; the signature still covers the raw bytes.',
    breaks: ['WH-X03', 'WH-X04', 'WH-X05'],
    // Buffer#toString replaces every invalid sequence with U+FFFD, as Go's decoder does for each bad byte. A
    // body over the limit is left to the reference: its cut may fall inside a character. (This reading was
    // the fault json-lenient-utf8 until WH-X03..X05 became SHOULD: RFC 8259 §8.1 binds the sender.)
    handle: async (call) =>
      call.request.bodyExceeded || isUtf8(call.request.body)
        ? call.next(call.request)
        : acceptAs(call, { body: Buffer.from(call.request.body.toString('utf8')) }),
  }),
);
