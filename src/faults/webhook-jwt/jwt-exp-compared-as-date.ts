import { jwtRule } from '../support/jwt-faults.js';

export const jwtExpComparedAsDate = jwtRule({
  name: 'jwt-exp-compared-as-date',
  description: 'Checks `exp` through `new Date(exp * 1000)`: for a huge `exp` that is an Invalid Date, every comparison with it is false, so it is neither expired nor too far ahead.',
  breaks: ['WH-JWT-X12'],
  decide: (check) => {
    const { verdict, decoded } = check;
    if (verdict?.ok !== false || verdict.reason !== 'exp-too-far') return 'reference';
    return Number.isNaN(new Date(Number(decoded?.payload?.exp) * 1000).getTime()) ? 'accept' : 'reference';
  },
});
