import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionExpOptional = ignoreAssertionRefusal({
  name: 'assertion-exp-optional',
  description: 'Accepts a client assertion without `exp` ("a token without a finite expiry is not allowed").',
  breaks: ['TOK-09'],
  ignores: (reason) => reason === 'exp-missing',
});
