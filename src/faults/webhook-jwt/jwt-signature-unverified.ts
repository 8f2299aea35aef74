import { claimsVerdict, jwtRule } from '../support/jwt-faults.js';

export const jwtSignatureUnverified = jwtRule({
  name: 'jwt-signature-unverified',
  description: 'Checks the webhook JWT\'s claims but not its signature: a token signed by any key under a listed `kid` is accepted.',
  breaks: ['WH-JWT-10'],
  decide: async (check) =>
    check.verdict?.ok === false && check.verdict.reason === 'bad-signature' && (await claimsVerdict(check))?.ok ? 'accept' : 'reference',
});
