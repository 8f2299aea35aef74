import type { Catalogue } from './types.js';
import { ruling, spec } from './authority.js';

/**
 * Requirements of the service's own description (service.md §9 and §5.1, ruling 34): read from the OpenAPI
 * document the run was given (`--openapi`, the profile's `"openapi"`), never from an answer of the API.
 * Skipped, saying so, when the run has none.
 */
export const descriptionRequirements = {
  'DESC-01': {
    section: '9',
    ruling: 34,
    level: 'MUST',
    text: 'The machine-readable description is OpenAPI 3.1: its `openapi` field is 3.1.x.',
    group: 'description',
    needs: ['openapi'],
    authority: spec('9', 'The machine-readable description uses OpenAPI 3.1.0 and carries the API version `0.1.0-alpha`.'),
  },
  'DESC-02': {
    section: '5.1',
    ruling: 34,
    level: 'SHOULD',
    text: 'The description declares the two security schemes of §5.1: HTTP bearer, and OAuth 2.0 client credentials with the token URL `/auth/v1/token` and no scopes.',
    group: 'description',
    needs: ['openapi'],
    authority: spec('5.1', 'Two security schemes apply together to the API: HTTP bearer, and OAuth 2.0 with the client-credentials flow. The token URL is the path `/auth/v1/token`, and no scopes are defined.'),
  },
  'DESC-03': {
    section: '4.2',
    ruling: 34,
    level: 'SHOULD',
    text: 'Where the description has `GET /api/v1/apps/{app_id}/ownerids`, it names it `c1.api.app.v1.AppOwners.ListOwnerIDs` with the tag `App Owner`.',
    group: 'description',
    needs: ['openapi'],
    authority: ruling(34),
  },
  'DESC-04': {
    section: '9',
    ruling: 34,
    level: 'INFO',
    text: 'The API version the description carries (`info.version`; `0.1.0-alpha` at the time of the spec) is recorded.',
    group: 'description',
    needs: ['openapi'],
    authority: ruling(34),
  },
} as const satisfies Catalogue;
