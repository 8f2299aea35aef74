/**
 * §6, §2.6 (ruling 18) under pressure: the idempotency record is not a bounded cache that other events of
 * the listener push out, and a duplicate does not restart its 7 days. The first check sends a few hundred
 * other events between the first request and its duplicate, a bounded number at a time; the second moves
 * the target's clock (test hooks), so the engine runs it last, alone.
 */
import type { HttpResponse, TargetClient, TestHooks } from '../src/client/types.js';
import { HarnessError } from '../src/errors.js';
import { boundedAll } from './support/bounded.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus, fail } from './support/expect.js';
import { expectAccepted, expectSetupAccepted, statusHistogram } from './support/webhook-expect.js';
import { freshEventId, sampleBody, timestampOf } from './support/webhook-values.js';

/** "Several hundred": past the 256 or so a small per-listener cache would hold. */
const OTHER_EVENTS = 300;
/** Requests in flight at once: enough to finish in a second or two, few enough for any target. */
const IN_FLIGHT = 16;

const DAY = 86_400;

function clockHooks(client: TargetClient): TestHooks {
  if (!client.hooks) throw new HarnessError('INTERNAL', 'a check that needs hooks.clock ran without hooks in the profile');
  return client.hooks;
}

group('§6 Idempotency: memory attacks', () => {
  check('IDEM-X01', async ({ client, faker }) => {
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: first request' }), 'the first request');
    const others: HttpResponse[] = await boundedAll(OTHER_EVENTS, IN_FLIGHT, (i) =>
      client.sendWebhook('hmac', { body, label: `idempotency: other event ${i + 1}/${OTHER_EVENTS}` }));
    const accepted = others.filter((res) => res.status === 200).length;
    if (accepted !== OTHER_EVENTS) {
      const histogram = statusHistogram(others);
      fail(`precondition failed: of ${OTHER_EVENTS} other valid events only ${accepted} were accepted (${histogram}), so this check cannot conclude`,
        `200×${OTHER_EVENTS}`, histogram);
    }
    const duplicate = await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: duplicate after the other events' });
    expectStatus(duplicate, 409, `duplicate sent after ${OTHER_EVENTS} other events on the same listener`);
    // Room for a --rate-limit run (300 requests at 5/s take 60 s); against the reference it takes about a second.
  }, { timeout: 180_000 });

  check('IDEM-X02', async ({ client, faker }) => {
    const hooks = clockHooks(client);
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'idempotency: first request' }), 'the first request');
    const sixDays = await hooks.advance(6 * DAY);
    const duplicate = await client.sendWebhook('hmac', { eventId, body, timestamp: timestampOf(sixDays), label: 'idempotency: duplicate 6 days later' });
    expectStatus(duplicate, 409, 'precondition failed, the duplicate 6 days after the first request (inside the retention; see IDEM-07) was not refused with 409');
    const past = await hooks.advance(DAY + 60);
    const again = await client.sendWebhook('hmac', { eventId, body, timestamp: timestampOf(past), label: 'idempotency: same ID 7 days + 1 min after the first' });
    expectAccepted(again, 'the same event ID 7 days and 1 minute after the first request, 1 day after its duplicate (a duplicate does not extend the record)');
  });
});
