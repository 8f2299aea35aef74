import { acceptAs, webhookFault } from '../../faults/support/webhook-faults.js';
import { defineVariant } from '../define.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export const jsonBomAccepted = defineVariant(
  { area: 'webhook-common', stacks: 'Python `json.loads(bytes)` (FastAPI/Starlette `await request.json()` detects and skips a UTF-8 BOM)', touches: ['WH-X08'] },
  webhookFault({
    name: 'json-bom-accepted',
    description: 'Parses a JSON body that starts with a UTF-8 byte order mark, skipping the mark (RFC 8259 §8.1 allows ignoring it); the signature still covers the raw bytes.',
    breaks: [],
    handle: async (call) =>
      call.request.body.subarray(0, BOM.length).equals(BOM) ? acceptAs(call, { body: call.request.body.subarray(BOM.length) }) : call.next(call.request),
  }),
);
