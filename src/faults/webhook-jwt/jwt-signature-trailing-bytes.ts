import { claimsVerdict, jwtRule, listedKey, signatureValid } from '../support/jwt-faults.js';

export const jwtSignatureTrailingBytes = jwtRule({
  name: 'jwt-signature-trailing-bytes',
  description: 'Reads only as many signature bytes as the algorithm needs: a valid signature with bytes appended verifies.',
  breaks: ['WH-JWT-X09'],
  decide: async (check) => {
    const { jwt, decoded } = check;
    const key = listedKey(check.listener, decoded?.header?.kid);
    if (jwt === undefined || decoded === undefined || check.verdict?.ok !== false || key === undefined) return 'reference';
    const signature = Buffer.from(decoded.signature, 'base64url');
    const needed = decoded.header?.alg === 'RS256' ? Buffer.from(String(key.n), 'base64url').length : 64;
    if (signature.length <= needed) return 'reference';
    const cut = `${jwt.split('.').slice(0, 2).join('.')}.${signature.subarray(0, needed).toString('base64url')}`;
    return signatureValid(cut, key) && (await claimsVerdict(check))?.ok ? 'accept' : 'reference';
  },
});
