import { acceptAssertion } from '../support/assertion-faults.js';

export const assertionSubPrefixMatch = acceptAssertion({
  name: 'assertion-sub-prefix-match',
  description: 'Checks that a client assertion\'s `sub` starts with the Client ID instead of equalling it.',
  breaks: ['TOK-X08'],
  accepts: (check) => {
    const sub = check.decoded.payload?.sub;
    return check.verdict.reason === 'sub-mismatch' && typeof sub === 'string' && sub.startsWith(check.credential.clientId);
  },
});
