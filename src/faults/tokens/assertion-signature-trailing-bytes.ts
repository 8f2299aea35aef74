import { acceptAssertion, assertionClaimsPass, assertionSignedBy } from '../support/assertion-faults.js';

/** Ed25519 signatures are 64 bytes (RFC 8032 §5.1.6). */
const ED25519_SIGNATURE_BYTES = 64;

export const assertionSignatureTrailingBytes = acceptAssertion({
  name: 'assertion-signature-trailing-bytes',
  description: 'Reads only the first 64 bytes of a client assertion\'s Ed25519 signature: a valid signature with bytes appended verifies.',
  breaks: ['TOK-X05'],
  accepts: async (check) => {
    const signature = Buffer.from(check.decoded.signature, 'base64url');
    if (signature.length <= ED25519_SIGNATURE_BYTES) return false;
    const cut = `${check.assertion.split('.').slice(0, 2).join('.')}.${signature.subarray(0, ED25519_SIGNATURE_BYTES).toString('base64url')}`;
    return assertionSignedBy(cut, check.credential.config.publicJwk) && assertionClaimsPass(check);
  },
});
