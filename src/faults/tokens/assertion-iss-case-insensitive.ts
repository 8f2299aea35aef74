import { acceptAssertion } from '../support/assertion-faults.js';

export const assertionIssCaseInsensitive = acceptAssertion({
  name: 'assertion-iss-case-insensitive',
  description: 'Compares a client assertion\'s `iss` with the Client ID case-insensitively, not as the exact string.',
  breaks: ['TOK-X07'],
  accepts: (check) => {
    const iss = check.decoded.payload?.iss;
    return check.verdict.reason === 'iss-mismatch' && typeof iss === 'string' && iss.toLowerCase() === check.credential.clientId.toLowerCase();
  },
});
