import { buildJwks } from '../../crypto/signing-keys.js';
import type { JwksFetcher } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const jwksUnreachableAccepted = defineFault({
  name: 'jwks-unreachable-accepted',
  description: 'When the JWKS URL cannot be fetched, falls back to a copy of the keys it once had, so a JWT for an unreachable JWKS is accepted.',
  breaks: ['WH-JWT-25'],
  ports: (deps, env) => {
    const inner = deps.jwksFetcher;
    const jwksFetcher: JwksFetcher = async (url) => {
      try {
        return await inner(url);
      } catch (error) {
        // The "stale copy": the keys the listener was set up with, as if fetched earlier.
        const listener = Object.values(env.tenant.listeners).find((candidate) => candidate.config.method === 'JWT' && candidate.config.jwksUrl === url);
        if (listener === undefined || !('signingKeys' in listener)) throw error;
        return buildJwks(listener.signingKeys);
      }
    };
    return { jwksFetcher };
  },
});
