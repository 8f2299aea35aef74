import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionTypRefused = refuseAssertion({
  name: 'assertion-typ-refused',
  description: 'Requires the explicit type `client-authentication+jwt` when a `typ` is present: a client assertion with `typ: JWT` is refused.',
  breaks: ['TOK-07'],
  refuses: (decoded) => decoded.header?.typ !== undefined && decoded.header.typ !== 'client-authentication+jwt',
  why: 'typ must be client-authentication+jwt',
});
