import { refuseAssertion } from '../support/assertion-faults.js';

export const assertionNbfRefused = refuseAssertion({
  name: 'assertion-nbf-refused',
  description: 'Refuses client assertions that carry `nbf` (the form official SDKs send: nbf = now − 2 min).',
  breaks: ['TOK-04'],
  explains: {
    'TOK-03': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
    'TOK-05': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
    'TOK-06': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
    'TOK-07': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so this one is refused too',
    'TOK-24': 'the harness\'s assertions carry nbf unless a check removes it (the SDK form), so no assertion-method token is issued',
  },
  refuses: (decoded) => decoded.payload?.nbf !== undefined,
  why: 'unexpected claim nbf',
});
