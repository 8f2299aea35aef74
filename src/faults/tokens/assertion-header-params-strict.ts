import { refuseAssertion } from '../support/assertion-faults.js';

const KNOWN = new Set(['alg', 'kid', 'typ']);

export const assertionHeaderParamsStrict = refuseAssertion({
  name: 'assertion-header-params-strict',
  description: 'Refuses client assertions whose JOSE header carries a parameter besides alg, kid and typ (such as `nonce`).',
  breaks: ['TOK-05'],
  refuses: (decoded) => Object.keys(decoded.header ?? {}).some((name) => !KNOWN.has(name)),
  why: 'unknown header parameter',
});
