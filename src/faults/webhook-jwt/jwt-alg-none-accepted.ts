import { claimsVerdict, jwtRule } from '../support/jwt-faults.js';

export const jwtAlgNoneAccepted = jwtRule({
  name: 'jwt-alg-none-accepted',
  description: 'Accepts an unsigned webhook JWT (`alg: none`) when its claims are right.',
  breaks: ['WH-JWT-08'],
  decide: async (check) =>
    String(check.decoded?.header?.alg).toLowerCase() === 'none' && (await claimsVerdict(check))?.ok ? 'accept' : 'reference',
});
