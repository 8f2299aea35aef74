import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtSubIgnored = jwtRule({
  name: 'jwt-sub-ignored',
  description: 'Never checks the webhook JWT\'s `sub`: missing or another tenant\'s URL, it is accepted.',
  breaks: ['WH-JWT-11', 'WH-JWT-17'],
  decide: ignoring(({ reason, detail }) => reason === 'sub-mismatch' || (reason === 'claim-missing' && detail === 'sub')),
});
