import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtHtbIgnored = jwtRule({
  name: 'jwt-htb-ignored',
  description: 'Never compares the webhook JWT\'s `htb_s256` with the body: under JWT the body is not protected.',
  breaks: ['WH-JWT-16', 'WH-JWT-21', 'WH-JWT-24', 'WH-JWT-27'],
  decide: ignoring(({ reason, detail }) => reason === 'htb-mismatch' || (reason === 'claim-missing' && detail === 'htb_s256')),
});
