import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtHtmIgnored = jwtRule({
  name: 'jwt-htm-ignored',
  description: 'Never checks the webhook JWT\'s `htm`: missing or `GET`, it is accepted.',
  breaks: ['WH-JWT-15', 'WH-JWT-20'],
  decide: ignoring(({ reason, detail }) => reason === 'htm-mismatch' || (reason === 'claim-missing' && detail === 'htm')),
});
