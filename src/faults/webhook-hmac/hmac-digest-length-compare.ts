import { hmacRule } from '../support/hmac-faults.js';

export const hmacDigestLengthCompare = hmacRule({
  name: 'hmac-digest-length-compare',
  description: 'Compares only the first 43 characters of Webhook-Signature (the digest\'s length) with the digest: the valid digest with anything appended is accepted.',
  breaks: ['WH-HMAC-X04', 'WH-HMAC-X05'],
  accepts: ({ signature, sign }) => {
    const expected = sign();
    return signature !== undefined && signature.length >= expected.length && signature.slice(0, expected.length) === expected;
  },
});
