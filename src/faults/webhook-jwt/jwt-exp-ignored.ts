import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtExpIgnored = jwtRule({
  name: 'jwt-exp-ignored',
  description: 'Never checks the webhook JWT\'s `exp`: missing, expired or far ahead, it is accepted.',
  breaks: ['WH-JWT-13', 'WH-JWT-22', 'WH-JWT-23'],
  decide: ignoring(({ reason, detail }) => reason === 'expired' || reason === 'exp-too-far' || (reason === 'claim-missing' && detail === 'exp')),
});
