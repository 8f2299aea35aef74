import { hmacRule, NEEDS_VALID_HMAC } from '../support/hmac-faults.js';

export const hmacPaddedBase64Only = hmacRule({
  name: 'hmac-padded-base64-only',
  description: 'Expects the digest in standard base64 with `=` padding, so the base64url signature without padding that §5.4 specifies is refused.',
  breaks: ['WH-HMAC-01'],
  explains: NEEDS_VALID_HMAC,
  accepts: ({ signature, sign }) => signature === sign({ standardBase64: true, padded: true }),
});
