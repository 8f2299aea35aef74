import { ignoring, jwtRule } from '../support/jwt-faults.js';

export const jwtJtiIgnored = jwtRule({
  name: 'jwt-jti-ignored',
  description: 'Never compares the webhook JWT\'s `jti` with Webhook-Event-Id (nor requires it): a token can be replayed under new event IDs.',
  breaks: ['WH-JWT-14', 'WH-JWT-19'],
  decide: ignoring(({ reason, detail }) => reason === 'jti-mismatch' || (reason === 'claim-missing' && detail === 'jti')),
});
