import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtAudIgnored = jwtRule({
  name: 'jwt-aud-ignored',
  description: 'Never checks the webhook JWT\'s `aud`: a token for another listener (or for none) is accepted.',
  breaks: ['WH-JWT-12', 'WH-JWT-18'],
  decide: ignoring(({ reason, detail }) => reason === 'aud-mismatch' || (reason === 'claim-missing' && detail === 'aud')),
});
