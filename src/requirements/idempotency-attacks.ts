import type { Catalogue } from './types.js';
import { ruling, spec } from './authority.js';

/**
 * The idempotency record under pressure (service.md §2.6, §6; ruling 18): it is not an LRU cache that
 * other events push out, and it lives 7 days from the first request, not from the last duplicate.
 */
export const idempotencyAttackRequirements = {
  'IDEM-X01': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'A duplicate sent after 300 other events on the same listener still gets 409: records are kept for 7 days, not until other events push them out.',
    group: 'idempotency-attacks',
    needs: ['webhooks.hmac'],
    authority: spec('6', 'Event records are kept for 7 days.'),
  },
  'IDEM-X02': {
    section: '2.6',
    ruling: 18,
    level: 'SHOULD',
    text: 'A duplicate does not extend the record: first request, duplicate at day 6 (409), then the same ID 7 days and 1 minute after the first request SHOULD get 200.',
    group: 'idempotency-attacks',
    needs: ['webhooks.hmac', 'hooks.clock'],
    authority: ruling(18),
    movesClock: true,
  },
} as const satisfies Catalogue;
