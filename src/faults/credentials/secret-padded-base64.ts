import { defineFault } from '../support/define.js';
import { joinSecret, reissue, secretJwk, splitSecret } from '../support/issue.js';

export const secretPaddedBase64 = defineFault({
  name: 'secret-padded-base64',
  description: 'Encodes the Client Secret\'s JWK in standard base64 with `=` padding instead of base64url without padding.',
  breaks: ['CRED-08'],
  explains: {
    'CRED-09': 'the JWK cannot be read from a segment that is not base64url, so its key type cannot be checked',
    'CRED-10': 'the JWK cannot be read from a segment that is not base64url, so its key pair cannot be checked',
  },
  issue: (tenant) => {
    const secret = tenant.credentials.expired.clientSecret;
    let text = JSON.stringify(secretJwk(secret));
    // Padding appears when the byte count is not a multiple of 3: pad the JSON with a space until it is not.
    while (Buffer.byteLength(text) % 3 === 0) text += ' ';
    reissue(tenant, 'expired', { clientSecret: joinSecret({ ...splitSecret(secret), jwkText: Buffer.from(text, 'utf8').toString('base64') }) });
  },
});
