import type { Catalogue } from './types.js';

/**
 * Requirements of the idempotency group (service.md §2.6, §6 rules 1–2; rulings 17–18): validation runs
 * authentication, then the idempotency check on the event ID, then the run; a second request with the same
 * event ID for the same listener gets 409 for 7 days.
 */
export const idempotencyRequirements = {
  'IDEM-01': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'A second request with the same event ID for the same listener gets 409.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-02': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'Idempotency is per listener: the same event ID on another listener is a new event (200).',
    group: 'idempotency',
    needs: ['webhooks.hmac', 'webhooks.hmacSecond'],
  },
  'IDEM-03': {
    section: '6',
    ruling: 17,
    level: 'MUST',
    text: 'Authentication runs before the idempotency check: a duplicate event ID with a bad signature gets 401, not 409.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-04': {
    section: '6',
    ruling: 17,
    level: 'MUST',
    text: 'A request that failed authentication does not consume its event ID: the same ID correctly signed afterwards gets 200.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-05': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'Duplicates arriving at the same time: among 25 parallel requests with one event ID exactly one gets 200 and the others 409.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-06': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'Parallel duplicates run the automation once: after 25 parallel requests with one event ID the runs hook shows exactly one run for it.',
    group: 'idempotency',
    needs: ['webhooks.hmac', 'hooks.runs'],
  },
  'IDEM-07': {
    section: '2.6',
    ruling: 18,
    level: 'MUST',
    text: 'Event records are kept for 7 days: a duplicate 6 days after the first request still gets 409.',
    group: 'idempotency',
    needs: ['webhooks.hmac', 'hooks.clock'],
    movesClock: true,
  },
  'IDEM-08': {
    section: '2.6',
    ruling: 18,
    level: 'SHOULD',
    text: 'After 7 days the event ID may be accepted again: 7 days and 1 minute after the first request the same ID SHOULD get 200.',
    group: 'idempotency',
    needs: ['webhooks.hmac', 'hooks.clock'],
    movesClock: true,
  },
  'IDEM-09': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'The event ID alone identifies the event: the same event ID with another body, correctly signed, gets 409.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-10': {
    section: '6',
    ruling: 18,
    level: 'MUST',
    text: 'Idempotency holds under JWT authentication too: a second request with the same event ID (and `jti`) on the JWT listener gets 409.',
    group: 'idempotency',
    needs: ['webhooks.jwt'],
  },
  'IDEM-11': {
    section: '6',
    ruling: 15,
    level: 'INFO',
    text: 'Whether the upper-case spelling of an already accepted event ID counts as the same event: not specified; the answer is recorded.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
  'IDEM-12': {
    section: '6',
    ruling: 17,
    level: 'INFO',
    text: 'Whether a request refused 400 (timestamp out of range, correctly signed) consumes its event ID: not specified; the answer to a valid retry is recorded.',
    group: 'idempotency',
    needs: ['webhooks.hmac'],
  },
} as const satisfies Catalogue;
