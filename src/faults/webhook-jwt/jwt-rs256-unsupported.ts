import { jwtRule } from '../support/jwt-faults.js';

export const jwtRs256Unsupported = jwtRule({
  name: 'jwt-rs256-unsupported',
  description: 'Supports only ES256 and EdDSA: webhook JWTs signed with RS256 are refused.',
  breaks: ['WH-JWT-01'],
  explains: {
    'WH-JWT-26': 'the harness signs with the listener\'s first key, an RS256 key, when a check names no algorithm',
  },
  decide: ({ decoded }) => (decoded?.header?.alg === 'RS256' ? 'refuse' : 'reference'),
});
