/**
 * §4.3, §6 rules 3–4 (rulings 17–19): a 200 means the linked automation ran, once, with the whole JSON body
 * as its context; an unpublished or disabled automation does not run; a refused request starts nothing.
 * Runs are seen only through the runs test hook. The context is compared with the JSON value that was
 * sent (deep equality: key order and number spelling are the JSON encoder's business, values are not).
 */
import type { TargetClient } from '../src/client/types.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus, fail } from './support/expect.js';
import {
  expectAccepted,
  expectContextEquals,
  expectExactlyOneRun,
  expectNoRun,
  expectSetupAccepted,
  NO_RUN_WATCH_MS,
  RUN_SETTLE_MS,
  outcome,
} from './support/webhook-expect.js';
import { freshEventId, hmacListener, jwtListener, nestedUnicodeBody, sampleBody } from './support/webhook-values.js';
import { generateHmacSecret } from '../src/crypto/hmac.js';

/** Sends one valid webhook, then expects exactly one run whose context is the body sent. */
async function expectOneRunWithBody(client: TargetClient, listener: 'hmac' | 'jwt', listenerId: string, body: Record<string, unknown>, label: string): Promise<void> {
  const eventId = freshEventId();
  expectAccepted(await client.sendWebhook(listener, { eventId, body, label: `runs: ${label}` }), label);
  const run = await expectExactlyOneRun(client, listenerId, eventId, `after a 200 (${label})`);
  expectContextEquals(run, body, label);
}

group.concurrent('§6 Automation runs', () => {
  check('RUN-01', async ({ client, faker, profile }) => {
    await expectOneRunWithBody(client, 'hmac', hmacListener(profile).listenerId, sampleBody(faker), 'valid request');
  }, { waitsMs: RUN_SETTLE_MS });

  check('RUN-02', async ({ client, faker, profile }) => {
    await expectOneRunWithBody(client, 'hmac', hmacListener(profile).listenerId, nestedUnicodeBody(faker), 'nested, non-ASCII body');
  }, { waitsMs: RUN_SETTLE_MS });

  check('RUN-03', async ({ client, faker, profile }) => {
    await expectOneRunWithBody(client, 'jwt', jwtListener(profile).listenerId, sampleBody(faker), 'valid JWT request');
  }, { waitsMs: RUN_SETTLE_MS });

  check('RUN-04', async ({ client, note }) => {
    const res = await client.sendWebhook('inactive', { label: 'runs: listener of an inactive automation' });
    if (res.status === 200) {
      fail('valid request to the listener of an unpublished or disabled automation was answered 200', 'not 200', '200');
    }
    note(`inactive automation's listener answered ${res.status}`);
  });

  check('RUN-05', async ({ client, profile, note }) => {
    const eventId = freshEventId();
    const res = await client.sendWebhook('inactive', { eventId, label: 'runs: listener of an inactive automation' });
    note(`inactive automation's listener answered ${res.status}`);
    await expectNoRun(client, hmacListener(profile, 'inactive').listenerId, eventId, 'valid request to an inactive automation');
  }, { waitsMs: NO_RUN_WATCH_MS });

  check('RUN-06', async ({ client, faker, profile, note }) => {
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    expectSetupAccepted(await client.sendWebhook('hmac', { eventId, body, label: 'runs: first request' }), 'the first request');
    const duplicate = await client.sendWebhook('hmac', { eventId, body, label: 'runs: duplicate' });
    note(`duplicate: ${outcome(duplicate)}`);
    await expectExactlyOneRun(client, hmacListener(profile).listenerId, eventId, 'after a 200 and a duplicate');
  }, { waitsMs: RUN_SETTLE_MS });

  check('RUN-07', async ({ client, profile }) => {
    const { listenerId, secret } = hmacListener(profile);
    let other = generateHmacSecret();
    while (other === secret) other = generateHmacSecret();
    const eventId = freshEventId();
    const res = await client.sendWebhook('hmac', { eventId, hmac: { secret: other }, label: 'runs: bad signature' });
    expectStatus(res, 401, 'precondition failed, the badly signed request was not refused with 401, so this check cannot conclude');
    await expectNoRun(client, listenerId, eventId, 'request refused with 401');
  }, { waitsMs: NO_RUN_WATCH_MS });

  check('RUN-08', async ({ client, profile }) => {
    const eventId = freshEventId();
    const res = await client.sendWebhook('hmac', { eventId, timestampOffset: -330, label: 'runs: stale timestamp' });
    expectStatus(res, 400, 'precondition failed, the stale request was not refused with 400, so this check cannot conclude');
    await expectNoRun(client, hmacListener(profile).listenerId, eventId, 'request refused with 400');
  }, { waitsMs: NO_RUN_WATCH_MS });
});
