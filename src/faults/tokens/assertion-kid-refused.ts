import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionKidRefused = refuseAssertion({
  name: 'assertion-kid-refused',
  description: 'Refuses a client assertion whose header names a `kid`, because the Client Secret\'s JWK has none to match.',
  breaks: ['TOK-06'],
  refuses: (decoded) => decoded.header?.kid !== undefined,
  why: 'kid matches no key',
});
