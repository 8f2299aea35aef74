import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionAlgNoneAccepted = ignoreAssertionRefusal({
  name: 'assertion-alg-none-accepted',
  description: 'Accepts an unsigned client assertion (`alg: none`) whose claims are right.',
  breaks: ['TOK-18'],
  ignores: (reason, decoded) => reason === 'alg-not-allowed' && String(decoded.header?.alg).toLowerCase() === 'none',
});
