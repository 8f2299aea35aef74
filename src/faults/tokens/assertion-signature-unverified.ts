import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionSignatureUnverified = ignoreAssertionRefusal({
  name: 'assertion-signature-unverified',
  description: 'Decodes the client assertion and checks its claims but never verifies its EdDSA signature.',
  breaks: ['TOK-17'],
  ignores: (reason) => reason === 'bad-signature',
});
