import { hmacRule } from '../support/hmac-faults.js';

export const hmacPrefixCompare = hmacRule({
  name: 'hmac-prefix-compare',
  description: 'Compares only as many characters as the sender gave (`expected.startsWith(given)`): a truncated signature is accepted.',
  breaks: ['WH-HMAC-14', 'WH-HMAC-X06', 'WH-HMAC-X07'],
  accepts: ({ signature, sign }) => signature !== undefined && signature !== '' && sign().startsWith(signature),
});
