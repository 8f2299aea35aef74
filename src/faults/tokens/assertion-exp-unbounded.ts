import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionExpUnbounded = ignoreAssertionRefusal({
  name: 'assertion-exp-unbounded',
  description: 'Accepts a client assertion whose `exp` is any time in the future, not only within five minutes.',
  breaks: ['TOK-10'],
  ignores: (reason) => reason === 'exp-too-far',
});
