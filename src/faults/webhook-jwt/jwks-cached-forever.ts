import type { Jwks, JwksFetcher } from '../../reference/types.js';
import { defineFault } from '../support/define.js';

export const jwksCachedForever = defineFault({
  name: 'jwks-cached-forever',
  description: 'Fetches each JWKS once and keeps it for good: a key added to the JWKS later (a rotation) is never accepted.',
  breaks: ['WH-JWT-X19'],
  ports: (deps) => {
    const inner = deps.jwksFetcher;
    const documents = new Map<string, Jwks>();
    const jwksFetcher: JwksFetcher = async (url) => {
      const kept = documents.get(url);
      if (kept !== undefined) return kept;
      const jwks = await inner(url);
      documents.set(url, jwks);
      return jwks;
    };
    return { jwksFetcher };
  },
});
