import type { TokenStore } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

/** Seconds a new token stays unusable (a replica that has not caught up). */
const LAG_SECONDS = 30;

export const apiTokenActivationLag = defineFault({
  name: 'api-token-activation-lag',
  description: `Replicates new access tokens to the API lazily: a token is refused for ${LAG_SECONDS} s after it was issued.`,
  breaks: ['AUTH-10', 'AUTH-11', 'AUTH-12'],
  explains: {
    'AUTH-07': 'the fresh token is refused before the clock moves, so its expiry cannot be observed (harness error)',
    'OWN-01': 'the harness uses each token right after obtaining it, and it is refused',
  },
  ports: (deps) => {
    const inner = deps.tokenStore;
    const issuedAt = new Map<string, number>();
    const tokenStore: TokenStore = {
      put: (hash, record, now) => {
        issuedAt.set(hash, now);
        inner.put(hash, record, now);
      },
      get: (hash, now) => (now - (issuedAt.get(hash) ?? now) < LAG_SECONDS ? undefined : inner.get(hash, now)),
      sweep: (now) => inner.sweep(now),
      size: () => inner.size(),
    };
    return { tokenStore };
  },
});
