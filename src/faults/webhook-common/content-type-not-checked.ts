import { mediaType } from '../../reference/http.js';
import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const contentTypeNotChecked = webhookFault({
  name: 'content-type-not-checked',
  description: 'Requires a Content-Type header but never looks at its value: a JSON body sent as `text/plain` or a form is accepted.',
  breaks: ['WH-X09', 'WH-X10', 'WH-X11', 'WH-X12', 'WH-X13'],
  handle: async (call) => {
    const type = mediaType(call.request);
    return type === '' || type === 'application/json'
      ? call.next(call.request)
      : acceptAs(call, { headers: { 'content-type': 'application/json' } });
  },
});
