import { jwtRule } from '../support/jwt-faults.js';

export const jwtEs256Unsupported = jwtRule({
  name: 'jwt-es256-unsupported',
  description: 'Supports only RSA and Ed25519 keys: webhook JWTs signed with ES256 are refused.',
  breaks: ['WH-JWT-02'],
  decide: ({ decoded }) => (decoded?.header?.alg === 'ES256' ? 'refuse' : 'reference'),
});
