import { acceptAs, webhookFault } from '../support/webhook-faults.js';

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

export const jsonNotValidated = webhookFault({
  name: 'json-not-validated',
  description: 'Does not parse the body: invalid JSON (truncated, empty) is accepted and handed to the automation as a string.',
  breaks: ['WH-24', 'WH-25'],
  handle: async (call) =>
    isJson(call.request.body) ? call.next(call.request) : acceptAs(call, { body: Buffer.from(JSON.stringify(call.request.body.toString('utf8'))) }),
});
