import { mediaType } from '../../reference/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const contentTypePrefixMatch = webhookFault({
  name: 'content-type-prefix-match',
  description: 'Checks that Content-Type starts with `application/json`: `application/jsonx` is accepted.',
  breaks: ['WH-X12', 'WH-X13'],
  handle: async (call) => {
    const type = mediaType(call.request);
    return type !== 'application/json' && type.startsWith('application/json')
      ? acceptAs(call, { headers: { 'content-type': 'application/json' } })
      : call.next(call.request);
  },
});
