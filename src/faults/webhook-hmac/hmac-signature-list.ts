import { hmacRule } from '../support/hmac-faults.js';

export const hmacSignatureList = hmacRule({
  name: 'hmac-signature-list',
  description: 'Reads Webhook-Signature as a space-separated list of `v1,<digest>` entries (Standard Webhooks) and accepts when any entry matches.',
  breaks: ['WH-HMAC-X10', 'WH-HMAC-X12'],
  accepts: ({ signature, sign }) => {
    const expected = sign();
    return (signature ?? '').split(' ').some((entry) => entry !== '' && entry.replace(/^v1,/, '') === expected);
  },
});
