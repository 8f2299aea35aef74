import type { Catalogue } from './types.js';

/** Requirements of the owners group: `GET /api/v1/apps/{app_id}/ownerids` (service.md §4.2, §2.3, ruling 8). */
export const ownersRequirements = {
  'OWN-01': {
    section: '4.2',
    ruling: 8,
    level: 'MUST',
    text: 'Listing the owner IDs of an existing app with a valid token gets status 200.',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-02': {
    section: '4.2',
    ruling: 8,
    level: 'MUST',
    text: 'The owner-ID list response is `application/json`.',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-03': {
    section: '2.3',
    ruling: 8,
    level: 'MUST',
    text: 'The owner-ID list body is a JSON object with the key `userIds`.',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-04': {
    section: '2.3',
    ruling: 8,
    level: 'MUST',
    text: '`userIds` is an array of strings, or null.',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-05': {
    section: '2.3',
    ruling: 8,
    level: 'MUST',
    text: '`userIds` holds the IDs of the owners of the app: the profile\'s expected IDs, order-insensitive (null or [] when it lists none).',
    group: 'owners',
    needs: ['apps.owners.ownerIds'],
  },
  'OWN-06': {
    section: '4.2',
    ruling: 8,
    level: 'INFO',
    text: 'The owner-ID list "is not paginated": whether the body carries pagination fields (`nextPageToken`, `list`) is recorded.',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-07': {
    section: '4.2',
    ruling: 6,
    level: 'MUST',
    text: 'The owner-ID list without a token gets 401 (security: bearer token).',
    group: 'owners',
    needs: ['apps.owners'],
  },
  'OWN-08': {
    section: '4.2',
    ruling: 8,
    level: 'SHOULD',
    text: 'The owner-ID list of an unknown app gets 404.',
    group: 'owners',
    needs: ['apps.missingAppId'],
  },
} as const satisfies Catalogue;
