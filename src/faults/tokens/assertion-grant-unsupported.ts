import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionGrantUnsupported = refuseAssertion({
  name: 'assertion-grant-unsupported',
  description: 'Supports only the basic method: every client assertion is refused, valid or not.',
  breaks: ['TOK-02', 'TOK-03', 'TOK-04', 'TOK-05', 'TOK-06', 'TOK-07', 'TOK-08', 'TOK-24'],
  refuses: () => true,
  why: 'client assertions are not supported',
});
