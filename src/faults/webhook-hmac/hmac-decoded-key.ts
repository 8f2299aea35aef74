import { hmacRule, NEEDS_VALID_HMAC } from '../support/hmac-faults.js';

export const hmacDecodedKey = hmacRule({
  name: 'hmac-decoded-key',
  description: 'Keys HMAC-SHA256 with the base64url-decoded secret instead of the UTF-8 bytes of the secret string as displayed.',
  breaks: ['WH-HMAC-01', 'WH-HMAC-08'],
  explains: NEEDS_VALID_HMAC,
  accepts: ({ signature, sign }) => signature === sign({ decodedKey: true }),
});
