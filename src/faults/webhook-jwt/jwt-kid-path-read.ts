import { claimsVerdict, hs256Signature, jwtRule } from '../support/jwt-faults.js';

export const jwtKidPathRead = jwtRule({
  name: 'jwt-kid-path-read',
  description: 'Resolves a `kid` that looks like a path as a key file and lets the header pick HMAC: a kid naming /dev/null verifies HS256 over the empty key.',
  breaks: ['WH-JWT-X03'],
  decide: async (check) => {
    const header = check.decoded?.header;
    const kid = header?.kid;
    if (check.jwt === undefined || header?.alg !== 'HS256' || typeof kid !== 'string' || !kid.endsWith('/dev/null')) return 'reference';
    // Reading /dev/null gives no bytes: the HMAC key is empty.
    return check.decoded?.signature === hs256Signature(check.jwt, Buffer.alloc(0)) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
