import { jwtRule } from '../support/jwt-faults.js';

export const jwtEddsaUnsupported = jwtRule({
  name: 'jwt-eddsa-unsupported',
  description: 'Supports only RS256 and ES256: webhook JWTs signed with EdDSA (Ed25519) are refused.',
  breaks: ['WH-JWT-03'],
  decide: ({ decoded }) => (decoded?.header?.alg === 'EdDSA' ? 'refuse' : 'reference'),
});
