/**
 * §6 rules 1–2, §2.6 (rulings 17–18): authentication first, then the idempotency check on the event ID,
 * then the run; a second request with the same event ID for the same listener gets 409 for 7 days, also
 * when the duplicates arrive together. The retention checks move the target's clock (test hooks), so the
 * engine runs them last, one at a time; their timestamps come from the clock as the hook returns it.
 */
import type { HttpResponse, TargetClient, TestHooks } from '../src/client/types.js';
import { generateHmacSecret } from '../src/crypto/hmac.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { HarnessError } from '../src/errors.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus, fail } from './support/expect.js';
import { expectAccepted, expectExactlyOneRun, expectSetupAccepted, outcome, statusHistogram } from './support/webhook-expect.js';
import { freshEventId, hmacListener, sampleBody, timestampOf } from './support/webhook-values.js';

/** "25+ parallel duplicates": enough to overlap inside any check-then-insert window of the target. */
const PARALLEL_DUPLICATES = 25;
/** The race waits this long after the first run shows before counting: stragglers must have landed. */
const RACE_SETTLE_MS = 1_000;

/** Ruling 26: another form of an accepted UUID is a duplicate (409) or a form the service refuses (400). */
const SAME_EVENT = [400, 409] as const;

const DAY = 86_400;
/** Inside the 7-day retention with a day to spare. */
const INSIDE_RETENTION = 6 * DAY;
/** Past it by a minute. */
const PAST_RETENTION = 7 * DAY + 60;

function clockHooks(client: TargetClient): TestHooks {
  if (!client.hooks) throw new HarnessError('INTERNAL', 'a check that needs hooks.clock ran without hooks in the profile');
  return client.hooks;
}

/** Fires identical requests (same event ID, timestamp, body) at once. */
async function parallelDuplicates(client: TargetClient, eventId: string, body: string): Promise<HttpResponse[]> {
  const timestamp = timestampOf(await client.now());
  return Promise.all(
    Array.from({ length: PARALLEL_DUPLICATES }, (_, i) =>
      client.sendWebhook('hmac', { eventId, body, timestamp, label: `idempotency: parallel duplicate ${i + 1}/${PARALLEL_DUPLICATES}` }),
    ),
  );
}

/** Sends an event, moves the target's clock, sends it again; returns the second answer. */
async function duplicateAfter(client: TargetClient, seconds: number, body: string): Promise<HttpResponse> {
  const eventId = freshEventId();
  const first = await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: first request before moving the clock' });
  expectSetupAccepted(first, 'the first request');
  const now = await clockHooks(client).advance(seconds);
  return client.sendWebhook('hmac', {
    eventId,
    body,
    timestamp: timestampOf(now),
    label: `idempotency: same event ID ${(seconds / DAY).toFixed(3)} days later`,
  });
}

group.concurrent('§6 Idempotency', () => {
  check('IDEM-01', async ({ client, faker }) => {
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: first request' }), 'the first request');
    const second = await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: duplicate' });
    expectStatus(second, 409, 'second request with the same event ID on the same listener');
  });

  check('IDEM-02', async ({ client }) => {
    const eventId = freshEventId();
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, label: 'idempotency: event on the first listener' }), 'the request to the first listener');
    const other = await client.sendWebhook('hmacSecond', { eventId, label: 'idempotency: same event ID on the second listener' });
    expectAccepted(other, 'the same event ID on another listener');
  });

  check('IDEM-03', async ({ client, profile }) => {
    const eventId = freshEventId();
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, label: 'idempotency: first request' }), 'the first request');
    const forged = await client.sendWebhook('hmac', {
      eventId,
      hmac: { secret: otherSecret(hmacListener(profile).secret) },
      label: 'idempotency: duplicate signed with another secret',
    });
    expectStatus(forged, 401, 'duplicate event ID with a bad signature (authentication comes before idempotency)');
  });

  check('IDEM-04', async ({ client, profile }) => {
    const eventId = freshEventId();
    const forged = await client.sendWebhook('hmac', {
      eventId,
      hmac: { secret: otherSecret(hmacListener(profile).secret) },
      label: 'idempotency: bad signature first',
    });
    expectStatus(forged, 401, 'precondition failed, the badly signed request was not refused with 401, so this check cannot conclude');
    const valid = await client.sendWebhook('hmac', { eventId, label: 'idempotency: same event ID, correctly signed' });
    expectAccepted(valid, 'the event ID of a request that failed authentication, now correctly signed');
  });

  check('IDEM-05', async ({ client, faker }) => {
    const responses = await parallelDuplicates(client, freshEventId(), JSON.stringify(sampleBody(faker)));
    const accepted = responses.filter((res) => res.status === 200).length;
    const duplicates = responses.filter((res) => res.status === 409).length;
    if (accepted !== 1 || duplicates !== PARALLEL_DUPLICATES - 1) {
      const histogram = statusHistogram(responses);
      fail(
        `${PARALLEL_DUPLICATES} parallel requests with one event ID: got ${histogram}, expected exactly one 200 and ${PARALLEL_DUPLICATES - 1} × 409`,
        `200×1, 409×${PARALLEL_DUPLICATES - 1}`,
        histogram,
      );
    }
  }, { timeout: 60_000 });

  check('IDEM-06', async ({ client, faker, profile, note }) => {
    const eventId = freshEventId();
    const responses = await parallelDuplicates(client, eventId, JSON.stringify(sampleBody(faker)));
    note(`answers to the ${PARALLEL_DUPLICATES} parallel duplicates: ${statusHistogram(responses)}`);
    await expectExactlyOneRun(client, hmacListener(profile).listenerId, eventId, `${PARALLEL_DUPLICATES} parallel duplicates`, RACE_SETTLE_MS);
  }, { timeout: 60_000, waitsMs: RACE_SETTLE_MS });

  check('IDEM-07', async ({ client, faker }) => {
    const res = await duplicateAfter(client, INSIDE_RETENTION, JSON.stringify(sampleBody(faker)));
    expectStatus(res, 409, 'duplicate 6 days after the first request (inside the 7-day retention)');
  });

  check('IDEM-08', async ({ client, faker }) => {
    const res = await duplicateAfter(client, PAST_RETENTION, JSON.stringify(sampleBody(faker)));
    expectAccepted(res, 'the same event ID 7 days and 1 minute after the first request (past the retention)');
  });

  check('IDEM-09', async ({ client, faker }) => {
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    let other = JSON.stringify(sampleBody(faker));
    while (other === body) other = JSON.stringify(sampleBody(faker));
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: first body' }), 'the first request');
    const second = await client.sendWebhook('hmac', { eventId, body: other, label: 'idempotency: same event ID, another body' });
    expectStatus(second, 409, 'the same event ID with another body');
  });

  check('IDEM-10', async ({ client }) => {
    const eventId = freshEventId();
    expectSetupAccepted(await client.sendWebhook('jwt', { eventId, label: 'idempotency: JWT first request' }), 'the first JWT request');
    const second = await client.sendWebhook('jwt', { eventId, label: 'idempotency: JWT duplicate' });
    expectStatus(second, 409, 'second JWT request with the same event ID (and jti)');
  });

  // Ruling 26: a form of the UUID the service reads is the same event; a form it refuses gets 400.
  const sameEvent = (id: RequirementId, forms: ReadonlyArray<[string, (eventId: string) => string]>): void => {
    check(id, async ({ client, faker }) => {
      const eventId = freshEventId();
      const body = JSON.stringify(sampleBody(faker));
      expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: canonical event ID' }), 'the request with the canonical event ID');
      for (const [what, spell] of forms) {
        const res = await client.sendWebhook('hmac', { eventId: spell(eventId), body, label: `idempotency: same event, ID ${what}` });
        expectStatus(res, SAME_EVENT, `the UUID of an accepted event sent again ${what} (${spell(eventId)})`);
      }
    });
  };
  sameEvent('IDEM-11', [['in upper case', (id) => id.toUpperCase()]]);
  sameEvent('IDEM-13', [
    ['as 32 hex digits', (id) => id.replace(/-/g, '')],
    ['in braces', (id) => `{${id}}`],
    ['as urn:uuid:', (id) => `urn:uuid:${id}`],
  ]);

  check('IDEM-12', async ({ client, note, skip }) => {
    const eventId = freshEventId();
    const stale = await client.sendWebhook('hmac', { eventId, timestampOffset: -330, label: 'idempotency: stale timestamp first' });
    if (stale.status !== 400) skip(`a stale timestamp was answered ${stale.status}, not 400, so there is nothing to observe`);
    const retry = await client.sendWebhook('hmac', { eventId, label: 'idempotency: same event ID, current timestamp' });
    const meaning = retry.status === 409 ? 'the 400 consumed the ID' : retry.status === 200 ? 'the 400 did not consume the ID' : 'unclear';
    note(`valid retry after a 400 for a stale timestamp: ${outcome(retry)}, i.e. ${meaning}`);
  });
});

/** A secret of the listener's format that is not the listener's. */
function otherSecret(secret: string): string {
  let other = generateHmacSecret();
  while (other === secret) other = generateHmacSecret();
  return other;
}
