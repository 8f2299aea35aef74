import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionSubIgnored = ignoreAssertionRefusal({
  name: 'assertion-sub-ignored',
  description: 'Identifies the client by `iss` only: the client assertion\'s `sub` is not compared with the Client ID.',
  breaks: ['TOK-16'],
  ignores: (reason) => reason === 'sub-mismatch',
});
