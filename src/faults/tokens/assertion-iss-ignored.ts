import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionIssIgnored = ignoreAssertionRefusal({
  name: 'assertion-iss-ignored',
  description: 'Identifies the client by `sub` only: the client assertion\'s `iss` is not compared with the Client ID.',
  breaks: ['TOK-15'],
  ignores: (reason) => reason === 'iss-mismatch',
});
