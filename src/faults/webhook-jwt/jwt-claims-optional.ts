import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtClaimsOptional = jwtRule({
  name: 'jwt-claims-optional',
  description: 'Checks each required claim only when it is present: a JWT without sub, aud, exp, jti, htm or htb_s256 is accepted.',
  breaks: ['WH-JWT-11', 'WH-JWT-12', 'WH-JWT-13', 'WH-JWT-14', 'WH-JWT-15', 'WH-JWT-16'],
  decide: ignoring(({ reason }) => reason === 'claim-missing'),
});
