import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionIatRequired = refuseAssertion({
  name: 'assertion-iat-required',
  description: 'Requires `iat` in client assertions, although only `exp` is required.',
  breaks: ['TOK-08'],
  refuses: (decoded) => decoded.payload !== undefined && decoded.payload.iat === undefined,
  why: 'iat is missing',
});
