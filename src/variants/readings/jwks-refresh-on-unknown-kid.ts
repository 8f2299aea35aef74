import { decodeJwtParts } from '../../crypto/decode.js';
import type { Jwks, JwksFetcher } from '../../reference/types.js';
import type { Tenant } from '../../tenant/types.js';
import { defineFault } from '../../faults/support/define.js';
import { bearerToken, listenerOf, routeOf } from '../../faults/support/http.js';
import { defineVariant } from '../define.js';

interface KeptDocuments {
  documents: Map<string, Jwks>;
  /** JWKS URLs a token with a kid the kept document lacks has asked to refetch. */
  wanted: Set<string>;
}

const keptByTenant = new WeakMap<Tenant, KeptDocuments>();

function keptOf(tenant: Tenant): KeptDocuments {
  let kept = keptByTenant.get(tenant);
  if (kept === undefined) keptByTenant.set(tenant, (kept = { documents: new Map(), wanted: new Set() }));
  return kept;
}

export const jwksRefreshOnUnknownKid = defineVariant(
  { area: 'webhook-jwt', stacks: 'golang-jwt with MicahParks/keyfunc (`RefreshUnknownKID`, no refresh interval)', touches: ['WH-JWT-X19'] },
  defineFault({
    name: 'jwks-refresh-on-unknown-kid',
    description: 'Keeps each JWKS document until a token names a `kid` it lacks, and only then fetches it again (no time-based refresh).',
    breaks: [],
    ports: (deps, env) => {
      const inner = deps.jwksFetcher;
      const kept = keptOf(env.tenant);
      const jwksFetcher: JwksFetcher = async (url) => {
        const document = kept.documents.get(url);
        if (document !== undefined && !kept.wanted.has(url)) return document;
        kept.wanted.delete(url);
        const fresh = await inner(url);
        kept.documents.set(url, fresh);
        return fresh;
      };
      return { jwksFetcher };
    },
    wrap: (handler, env) => async (request) => {
      const route = routeOf(request);
      const known = route.kind === 'webhook' ? listenerOf(env.tenant, route.listenerId) : undefined;
      const jwt = known?.method === 'JWT' ? bearerToken(request) : undefined;
      if (known?.method === 'JWT' && jwt !== undefined) {
        const { documents, wanted } = keptOf(env.tenant);
        const url = known.listener.config.jwksUrl;
        const kid = decodeJwtParts(jwt).header?.kid;
        if (documents.get(url)?.keys.some((key) => key.kid === kid) === false) wanted.add(url);
      }
      return handler(request);
    },
  }),
);
