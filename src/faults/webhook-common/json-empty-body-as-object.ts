import { acceptAs, webhookFault } from '../support/webhook-faults.js';

export const jsonEmptyBodyAsObject = webhookFault({
  name: 'json-empty-body-as-object',
  description: 'Treats an empty body as `{}` instead of refusing it as invalid JSON.',
  breaks: ['WH-25'],
  handle: async (call) => (call.request.body.length === 0 && !call.request.bodyExceeded ? acceptAs(call, { body: Buffer.from('{}') }) : call.next(call.request)),
});
