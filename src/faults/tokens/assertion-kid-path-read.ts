import { createHmac } from 'node:crypto';
import { acceptAssertion, assertionClaimsPass } from '../support/assertion-faults.js';

export const assertionKidPathRead = acceptAssertion({
  name: 'assertion-kid-path-read',
  description: 'Resolves a client assertion\'s `kid` that looks like a path as a key file and lets the header pick HMAC: a kid naming /dev/null verifies HS256 over the empty key.',
  breaks: ['TOK-X03'],
  accepts: async (check) => {
    const header = check.decoded.header;
    if (header?.alg !== 'HS256' || typeof header.kid !== 'string' || !header.kid.endsWith('/dev/null')) return false;
    const input = check.assertion.split('.').slice(0, 2).join('.');
    // Reading /dev/null gives no bytes: the HMAC key is empty.
    return check.decoded.signature === createHmac('sha256', Buffer.alloc(0)).update(input).digest('base64url') && assertionClaimsPass(check);
  },
});
