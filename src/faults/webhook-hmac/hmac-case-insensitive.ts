import { hmacRule } from '../support/hmac-faults.js';

export const hmacCaseInsensitive = hmacRule({
  name: 'hmac-case-insensitive',
  description: 'Compares Webhook-Signature with the digest case-insensitively (as if it were hex): the valid digest in another case is accepted.',
  breaks: ['WH-HMAC-X01', 'WH-HMAC-X02', 'WH-HMAC-X03'],
  accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && signature.toLowerCase() === sign().toLowerCase(),
});
