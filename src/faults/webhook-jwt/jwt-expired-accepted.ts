import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtExpiredAccepted = jwtRule({
  name: 'jwt-expired-accepted',
  description: 'Checks only the upper bound of the webhook JWT\'s `exp`: an expired token is accepted.',
  breaks: ['WH-JWT-22'],
  decide: ignoring(({ reason }) => reason === 'expired'),
});
