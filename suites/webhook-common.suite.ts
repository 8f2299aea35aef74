/**
 * §4.3 / §5.4 "Additional checks" / §7 / §8: what every inbound webhook is checked for, whatever the
 * listener's method (rulings 13–16, 20, 23). Requests go to the HMAC listener, correctly signed over
 * exactly what is sent, so each one breaks the single rule its check names (ruling 17: the order of the
 * 400 checks against 401 is not stated). Where a header is left out, the signature is computed over the
 * empty value, so an implementation that authenticates before checking headers still sees a valid
 * signature and answers for the missing header.
 */
import { generateHmacSecret } from '../src/crypto/hmac.js';
import type { Faker } from '../src/data/fake.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check } from './support/check.js';
import { group } from './support/group.js';
import { describeResponse, expectStatus } from './support/expect.js';
import {
  assertSent,
  assertSentBodyBytes,
  expectAccepted,
  outcome,
} from './support/webhook-expect.js';
import {
  freshEventId,
  NIL_UUID,
  notAUuid,
  sampleBody,
  timestampOf,
  uuidV1,
  uuidV3,
  uuidV4WrongVariant,
  uuidV5,
  uuidV7,
} from './support/webhook-values.js';

/** Statuses ruling 13 allows for a body over the limit. */
const OVERSIZE_STATUSES = [400, 413] as const;

group.concurrent('§4.3 Inbound webhook: common checks', () => {
  check('WH-01', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { label: 'webhook: valid request' });
    expectAccepted(res, 'valid webhook request');
  });

  check('WH-02', async ({ client, profile }) => {
    const limit = profile.limits.webhookBodyBytes;
    const res = await client.sendWebhook('hmac', { bodyBytes: limit, label: `webhook: body of exactly ${limit} bytes` });
    assertSentBodyBytes(res, limit);
    expectAccepted(res, `body of exactly the limit (${limit} bytes)`);
  });

  check('WH-03', async ({ client, profile }) => {
    const over = profile.limits.webhookBodyBytes + 1;
    const res = await client.sendWebhook('hmac', { bodyBytes: over, label: `webhook: body of ${over} bytes (one over)` });
    assertSentBodyBytes(res, over);
    expectStatus(res, OVERSIZE_STATUSES, `body one byte over the limit (${over} bytes)`);
  });

  check('WH-04', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { timestampOffset: -270, label: 'webhook: timestamp 270 s behind' });
    expectAccepted(res, 'Webhook-Timestamp 270 s behind server time');
  });

  check('WH-05', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { timestampOffset: 270, label: 'webhook: timestamp 270 s ahead' });
    expectAccepted(res, 'Webhook-Timestamp 270 s ahead of server time');
  });

  check('WH-06', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { timestampOffset: -330, label: 'webhook: timestamp 330 s behind' });
    expectStatus(res, 400, 'Webhook-Timestamp 330 s behind server time');
  });

  check('WH-07', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { timestampOffset: 330, label: 'webhook: timestamp 330 s ahead' });
    expectStatus(res, 400, 'Webhook-Timestamp 330 s ahead of server time');
  });

  check('WH-08', async ({ client }) => {
    const timestamp = String(Math.floor((await client.now()) * 1000));
    const res = await client.sendWebhook('hmac', { timestamp, label: 'webhook: timestamp in milliseconds' });
    assertSent(res, 'webhook-timestamp', timestamp);
    expectStatus(res, 400, 'Webhook-Timestamp in milliseconds');
  });

  check('WH-09', async ({ client }) => {
    // The current time, so the only defect is the format.
    const timestamp = new Date(Math.floor(await client.now()) * 1000).toISOString();
    const res = await client.sendWebhook('hmac', { timestamp, label: 'webhook: timestamp as an ISO 8601 date' });
    assertSent(res, 'webhook-timestamp', timestamp);
    expectStatus(res, 400, `non-numeric Webhook-Timestamp "${timestamp}"`);
  });

  check('WH-10', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { timestamp: '', label: 'webhook: empty timestamp' });
    assertSent(res, 'webhook-timestamp', '');
    expectStatus(res, 400, 'empty Webhook-Timestamp');
  });

  const eventIdRefused = (id: RequirementId, what: string, make: (faker: Faker, now: number) => string): void => {
    check(id, async ({ client, faker }) => {
      const eventId = make(faker, await client.now());
      const res = await client.sendWebhook('hmac', { eventId, label: `webhook: event ID ${what}` });
      assertSent(res, 'webhook-event-id', eventId);
      expectStatus(res, 400, `Webhook-Event-Id ${what} (${eventId})`);
    });
  };
  eventIdRefused('WH-11', 'a UUID v1', uuidV1);
  eventIdRefused('WH-12', 'a UUID v3', (faker) => uuidV3(faker));
  eventIdRefused('WH-13', 'a UUID v5', (faker) => uuidV5(faker));
  eventIdRefused('WH-14', 'a UUID v7', uuidV7);
  eventIdRefused('WH-15', 'the nil UUID', () => NIL_UUID);
  eventIdRefused('WH-16', 'not a UUID', (faker) => notAUuid(faker));
  eventIdRefused('WH-17', 'a UUID v4 without hyphens', () => freshEventId().replace(/-/g, ''));
  eventIdRefused('WH-18', 'version 4 with a non-RFC 4122 variant', (faker) => uuidV4WrongVariant(faker));

  check('WH-19', async ({ client }) => {
    const eventId = freshEventId().toUpperCase();
    const res = await client.sendWebhook('hmac', { eventId, label: 'webhook: upper-case UUID v4' });
    assertSent(res, 'webhook-event-id', eventId);
    expectAccepted(res, 'upper-case UUID v4 event ID');
  });

  check('WH-20', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { contentType: null, label: 'webhook: no Content-Type' });
    assertSent(res, 'content-type', null);
    expectStatus(res, 400, 'request without Content-Type');
  });

  check('WH-21', async ({ client, faker }) => {
    const eventId = freshEventId();
    const body = JSON.stringify(sampleBody(faker));
    // Signed over an empty timestamp by the client (not by hand): a reproduction can sign it again.
    const res = await client.sendWebhook('hmac', {
      body,
      eventId,
      omitHeaders: ['Webhook-Timestamp'],
      hmac: { signedTimestamp: '' },
      label: 'webhook: no Webhook-Timestamp',
    });
    assertSent(res, 'webhook-timestamp', null);
    expectStatus(res, 400, 'request without Webhook-Timestamp');
  });

  check('WH-22', async ({ client, faker }) => {
    const timestamp = timestampOf(await client.now());
    const body = JSON.stringify(sampleBody(faker));
    const res = await client.sendWebhook('hmac', {
      body,
      timestamp,
      omitHeaders: ['Webhook-Event-Id'],
      hmac: { signedEventId: '' },
      label: 'webhook: no Webhook-Event-Id',
    });
    assertSent(res, 'webhook-event-id', null);
    expectStatus(res, 400, 'request without Webhook-Event-Id');
  });

  check('WH-23', async ({ client }) => {
    const contentType = 'application/json; charset=utf-8';
    const res = await client.sendWebhook('hmac', { contentType, label: 'webhook: Content-Type with charset' });
    assertSent(res, 'content-type', contentType);
    expectAccepted(res, `Content-Type "${contentType}"`);
  });

  check('WH-24', async ({ client, faker }) => {
    const json = JSON.stringify(sampleBody(faker));
    const body = json.slice(0, json.length - 1);
    const res = await client.sendWebhook('hmac', { body, label: 'webhook: truncated JSON body' });
    expectStatus(res, 400, 'truncated JSON body (closing brace missing)');
  });

  check('WH-25', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { body: '', label: 'webhook: empty body' });
    assertSentBodyBytes(res, 0);
    expectStatus(res, 400, 'empty body');
  });

  check('WH-26', async ({ client }) => {
    const res = await client.sendWebhook('ipRestricted', { label: 'webhook: listener restricted to other IPs' });
    expectStatus(res, 403, 'valid request to a listener whose allowed CIDRs exclude the harness');
  });

  check('WH-27', async ({ client, faker, profile }) => {
    const known = new Set(Object.values(profile.webhooks).map((listener) => listener?.listenerId));
    let listenerId = `wh_${faker.string.alphanumeric(20)}`;
    while (known.has(listenerId)) listenerId += faker.string.alphanumeric(1);
    const res = await client.sendWebhookTo(listenerId, { hmacSecret: generateHmacSecret() }, { label: 'webhook: unknown listener' });
    expectStatus(res, 404, `POST to the never-generated listener "${listenerId}"`);
  });

  check('WH-28', async ({ client, faker, note }) => {
    const res = await client.sendWebhook('hmac', { eventId: notAUuid(faker), label: 'webhook: error body sample (invalid event ID)' });
    note(`invalid event ID answered: ${describeResponse(res)}`);
  });

  check('WH-29', async ({ client, note }) => {
    const timestamp = `${Math.floor(await client.now())}.5`;
    const res = await client.sendWebhook('hmac', { timestamp, label: 'webhook: fractional timestamp' });
    assertSent(res, 'webhook-timestamp', timestamp);
    note(`Webhook-Timestamp "${timestamp}": ${outcome(res)}`);
  });

  check('WH-30', async ({ client }) => {
    for (const [what, spell] of [
      ['braces', (id: string) => `{${id}}`],
      ['urn:uuid: prefix', (id: string) => `urn:uuid:${id}`],
    ] as const) {
      const eventId = spell(freshEventId());
      const res = await client.sendWebhook('hmac', { eventId, label: `webhook: event ID with ${what}` });
      assertSent(res, 'webhook-event-id', eventId);
      expectStatus(res, 400, `Webhook-Event-Id with ${what} (${eventId})`);
    }
  });
});
