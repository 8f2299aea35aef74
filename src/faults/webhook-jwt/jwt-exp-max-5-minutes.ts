import { jwtRule } from '../support/jwt-faults.js';

export const jwtExpMax5Minutes = jwtRule({
  name: 'jwt-exp-max-5-minutes',
  description: 'Bounds the webhook JWT\'s `exp` at 5 minutes ahead (the client-assertion limit) where §5.4 allows 10.',
  breaks: ['WH-JWT-26'],
  decide: ({ decoded, env }) => {
    const exp = decoded?.payload?.exp;
    return typeof exp === 'number' && exp > env.ports().clock.now() + 305 ? 'refuse' : 'reference';
  },
});
