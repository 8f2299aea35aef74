import { ignoreAssertionRefusal } from '../support/assertion-faults.js';

export const assertionExpiredAccepted = ignoreAssertionRefusal({
  name: 'assertion-expired-accepted',
  description: 'Accepts a client assertion whose `exp` is in the past.',
  breaks: ['TOK-11'],
  ignores: (reason) => reason === 'expired',
});
