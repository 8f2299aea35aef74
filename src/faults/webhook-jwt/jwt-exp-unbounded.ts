import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtExpUnbounded = jwtRule({
  name: 'jwt-exp-unbounded',
  description: 'Checks only that the webhook JWT has not expired: an `exp` 15 minutes (or days) ahead is accepted.',
  breaks: ['WH-JWT-23'],
  decide: ignoring(({ reason }) => reason === 'exp-too-far'),
});
