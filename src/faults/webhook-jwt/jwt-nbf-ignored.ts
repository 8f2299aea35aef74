import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtNbfIgnored = jwtRule({
  name: 'jwt-nbf-ignored',
  description: 'Does not check `nbf`: a JWT that is not valid yet is accepted (RFC 7519 §4.1.5).',
  breaks: ['WH-JWT-X13'],
  decide: ignoring((verdict) => verdict.reason === 'nbf-in-future'),
});
