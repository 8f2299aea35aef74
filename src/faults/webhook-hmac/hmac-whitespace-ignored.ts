import { hmacRule } from '../support/hmac-faults.js';

export const hmacWhitespaceIgnored = hmacRule({
  name: 'hmac-whitespace-ignored',
  description: 'Removes every whitespace character from Webhook-Signature before comparing: the valid digest with a space or tab inside is accepted.',
  breaks: ['WH-HMAC-X08', 'WH-HMAC-X09'],
  accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.replace(/\s+/g, '') === sign(),
});
