import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionAudArrayRefused = refuseAssertion({
  name: 'assertion-aud-array-refused',
  description: 'Accepts `aud` only as a string: a client assertion whose `aud` is a one-element array (as official SDKs send) is refused.',
  breaks: ['TOK-03'],
  refuses: (decoded) => Array.isArray(decoded.payload?.aud),
  why: 'aud must be a string',
});
