import type { Catalogue } from './types.js';

/**
 * Requirements of the api-auth group: the bearer scheme of service.md §5.1 on API calls (ruling 6). The
 * owner-ID list and the entitlement list are the two documented API operations; the checks use both. The
 * owners group checks the plain "no token" case on its own endpoint (OWN-07).
 */
export const apiAuthRequirements = {
  'AUTH-01': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'An API call without an Authorization header (GET /api/v1/apps/{app_id}/entitlements) gets 401.',
    group: 'api-auth',
    needs: ['apps.entitlements.large'],
  },
  'AUTH-02': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'An API call with an unknown (garbage) bearer token on the owner-ID list gets 401.',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-03': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'An API call with an unknown (garbage) bearer token on the entitlement list gets 401.',
    group: 'api-auth',
    needs: ['apps.entitlements.large'],
  },
  'AUTH-04': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'A valid access token sent with another scheme (`Authorization: Basic <token>`) gets 401: API requests carry `Authorization: Bearer <ACCESS_TOKEN>`.',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-05': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'An API call with `Authorization: Bearer` and an empty token gets 401.',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-06': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: 'An API call with a valid access token altered in one character in its middle (an unknown token) gets 401.',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-07': {
    section: '5.1',
    ruling: 6,
    level: 'MUST',
    text: '"An expired access token is denied": a token used after its expires_in has passed (target clock advanced) gets 401.',
    group: 'api-auth',
    needs: ['apps.owners', 'hooks.clock'],
    movesClock: true,
  },
  'AUTH-08': {
    section: '5.1',
    ruling: 6,
    level: 'SHOULD',
    text: 'The 401 for an API call without a token carries `WWW-Authenticate: Bearer` (RFC 6750 §3).',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-09': {
    section: '5.1',
    ruling: 6,
    level: 'SHOULD',
    text: 'The 401 for an API call with an unknown token carries `WWW-Authenticate: Bearer` (RFC 6750 §3).',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-10': {
    section: '5.1',
    level: 'MUST',
    text: 'A fresh token from the basic method, sent as `Authorization: Bearer <ACCESS_TOKEN>`, is accepted on the owner-ID list (200).',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-11': {
    section: '5.1',
    level: 'MUST',
    text: 'A fresh token from the signed-assertion method is accepted on the owner-ID list (200).',
    group: 'api-auth',
    needs: ['apps.owners'],
  },
  'AUTH-12': {
    section: '5.1',
    level: 'MUST',
    text: 'A fresh token is accepted on the entitlement list (200).',
    group: 'api-auth',
    needs: ['apps.entitlements.large'],
  },
} as const satisfies Catalogue;
