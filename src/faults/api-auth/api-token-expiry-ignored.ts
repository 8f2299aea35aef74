import type { TokenStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const apiTokenExpiryIgnored = defineFault({
  name: 'api-token-expiry-ignored',
  description: 'Keeps access tokens forever and never compares their expiry with the time: an expired token is still accepted.',
  breaks: ['AUTH-07'],
  ports: (deps) => {
    const inner = deps.tokenStore;
    // Every lookup and insert happens "at the beginning of time", so nothing is ever expired or swept.
    const tokenStore: TokenStore = {
      put: (hash, record) => inner.put(hash, record, Number.NEGATIVE_INFINITY),
      get: (hash) => inner.get(hash, Number.NEGATIVE_INFINITY),
      sweep: () => 0,
      size: () => inner.size(),
    };
    return { tokenStore };
  },
});
