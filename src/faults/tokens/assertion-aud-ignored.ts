import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionAudIgnored = ignoreAssertionRefusal({
  name: 'assertion-aud-ignored',
  description: 'Never checks the client assertion\'s `aud`: an assertion meant for any other audience is accepted.',
  breaks: ['TOK-12', 'TOK-13', 'TOK-14'],
  ignores: (reason) => reason === 'aud-mismatch',
});
