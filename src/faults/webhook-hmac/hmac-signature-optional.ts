import { hmacRule } from '../support/hmac-faults.js';

export const hmacSignatureOptional = hmacRule({
  name: 'hmac-signature-optional',
  description: 'Verifies Webhook-Signature only when one is sent: a request without it (or with an empty one) is accepted.',
  breaks: ['WH-HMAC-03', 'WH-HMAC-04'],
  accepts: ({ signature, sign }) => signature === undefined || signature === '' || signature === sign(),
});
