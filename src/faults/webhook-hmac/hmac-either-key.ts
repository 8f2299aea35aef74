import { hmacRule } from '../support/hmac-faults.js';

export const hmacEitherKey = hmacRule({
  name: 'hmac-either-key',
  description: 'Accepts signatures keyed with the secret string and also with the base64url-decoded secret ("to be lenient").',
  breaks: ['WH-HMAC-08'],
  accepts: ({ signature, sign }) => signature === sign() || signature === sign({ decodedKey: true }),
});
