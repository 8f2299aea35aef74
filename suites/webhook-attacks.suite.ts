/**
 * Attacks on the checks every inbound webhook goes through (§4.3, §7, §8; rulings 13, 15, 16, 20): the
 * size limit in bytes, strict UTF-8 JSON of one value (RFC 8259 §2, §8.1), the exact media type, the RFC
 * 4122 variant of the event ID, repeated Webhook-* headers (RFC 9110 §5.3; ruling 24: refusing them is SHOULD,
 * never buying a replay or a stale timestamp with them is MUST) and forwarding headers (ruling 29). Each
 * request goes to the HMAC listener signed over exactly the bytes sent, so only the named rule is broken.
 */
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus } from './support/expect.js';
import { forwardingHeader, spoofedAddress, withForwardingHint, type ForwardingHeader } from './support/forwarding.js';
import { assertSent, assertSentBodyBytes, expectAccepted, expectExactlyOneRun, expectNoRun, expectSetupAccepted, NO_RUN_WATCH_MS, outcome, RUN_SETTLE_MS } from './support/webhook-expect.js';
import { bodyWithBytes, multiByteBody, uuidV4WithVariant } from './support/attack-values.js';
import { freshEventId, hmacListener, sampleBody, timestampOf, validSignature } from './support/webhook-values.js';

const OVERSIZE_STATUSES = [400, 413] as const;
/** Ruling 17 leaves the order of the 400 checks against 401 open: a repeated header may get either. */
const REFUSED = [400, 401] as const;
/** Ruling 24 (a): a replay with a second event ID line is a duplicate (409) or refused outright (400, 401). */
const NOT_RUN_AGAIN = [400, 401, 409] as const;
/** Ruling 14: the harness's stale timestamp is 330 s old, 30 s beyond the window. */
const STALE_SECONDS = 330;

async function expectInvalidBody(ctx: CheckContext, body: Buffer | string, what: string): Promise<void> {
  const res = await ctx.client.sendWebhook('hmac', { body, label: `webhook: ${what}` });
  expectStatus(res, 400, what);
}

const INVALID_UTF8: ReadonlyArray<[RequirementId, string, number[]]> = [
  ['WH-X03', 'an invalid UTF-8 byte (0xFF) inside a string', [0xff]],
  ['WH-X04', 'an overlong UTF-8 encoding of "/" (0xC0 0xAF) inside a string', [0xc0, 0xaf]],
  ['WH-X05', 'a UTF-8-encoded surrogate (0xED 0xA0 0x80) inside a string', [0xed, 0xa0, 0x80]],
];

const MEDIA_TYPES: ReadonlyArray<[RequirementId, string]> = [
  ['WH-X09', 'text/plain'],
  ['WH-X10', 'text/plain; charset=utf-8'],
  ['WH-X11', 'application/x-www-form-urlencoded'],
  ['WH-X12', 'application/jsonx'],
  ['WH-X13', 'application/jsonx; charset=utf-8'],
];

const VARIANTS: ReadonlyArray<[RequirementId, string, string]> = [
  ['WH-X14', '0', 'NCS'],
  ['WH-X15', '7', 'NCS'],
  ['WH-X16', 'c', 'Microsoft'],
  ['WH-X17', 'e', 'reserved'],
];

const FORWARDING: ReadonlyArray<[RequirementId, ForwardingHeader]> = [
  ['WH-X22', 'X-Forwarded-For'],
  ['WH-X23', 'Forwarded'],
  ['WH-X24', 'X-Real-IP'],
];

group.concurrent('§4.3 Inbound webhook: attacks on the common checks', () => {
  check('WH-X01', async ({ client, profile }) => {
    const limit = profile.limits.webhookBodyBytes;
    const body = multiByteBody(limit + 1);
    const res = await client.sendWebhook('hmac', { body, label: `webhook: ${body.length} characters, ${limit + 1} bytes` });
    assertSentBodyBytes(res, limit + 1);
    expectStatus(res, OVERSIZE_STATUSES, `body of ${body.length} characters (under the limit) but ${limit + 1} UTF-8 bytes (one over)`);
  });

  check('WH-X02', async ({ client, profile }) => {
    const limit = profile.limits.webhookBodyBytes;
    const body = multiByteBody(limit);
    const res = await client.sendWebhook('hmac', { body, label: `webhook: ${body.length} characters, exactly ${limit} bytes` });
    assertSentBodyBytes(res, limit);
    expectAccepted(res, `body of exactly the limit (${limit} UTF-8 bytes, ${body.length} characters)`);
  });

  for (const [id, what, bytes] of INVALID_UTF8) {
    check(id, async (ctx) => {
      await expectInvalidBody(ctx, bodyWithBytes(ctx.faker, bytes), `JSON body with ${what}`);
    });
  }

  check('WH-X06', async (ctx) => {
    await expectInvalidBody(ctx, `${JSON.stringify(sampleBody(ctx.faker))}x`, 'a JSON object followed by "x"');
  });

  check('WH-X07', async (ctx) => {
    const value = JSON.stringify(sampleBody(ctx.faker));
    await expectInvalidBody(ctx, `${value} ${value}`, 'two JSON objects separated by a space');
  });

  // Python's json and JavaScript engines' JSON5-style readers take these; RFC 8259 §6 does not.
  check('WH-X27', async (ctx) => {
    for (const literal of ['NaN', 'Infinity', '-Infinity']) {
      const body = JSON.stringify({ ...sampleBody(ctx.faker), amount: 0 }).replace('"amount":0', `"amount":${literal}`);
      await expectInvalidBody(ctx, body, `a JSON object holding the bare number ${literal}`);
    }
  });

  check('WH-X08', async (ctx) => {
    const res = await ctx.client.sendWebhook('hmac', { body: `\uFEFF${JSON.stringify(sampleBody(ctx.faker))}`, label: 'webhook: body starting with a BOM' });
    ctx.note(`JSON body starting with a UTF-8 byte order mark: ${outcome(res)}`);
  });

  for (const [id, contentType] of MEDIA_TYPES) {
    check(id, async ({ client }) => {
      const res = await client.sendWebhook('hmac', { contentType, label: `webhook: Content-Type ${contentType}` });
      assertSent(res, 'content-type', contentType);
      expectStatus(res, 400, `JSON body sent as Content-Type: ${contentType}`);
    });
  }

  for (const [id, variant, name] of VARIANTS) {
    check(id, async ({ client, faker }) => {
      const eventId = uuidV4WithVariant(faker, variant);
      const res = await client.sendWebhook('hmac', { eventId, label: `webhook: UUID v4 with the ${name} variant` });
      assertSent(res, 'webhook-event-id', eventId);
      expectStatus(res, 400, `event ID ${eventId}: version 4, variant nibble ${variant} (${name})`);
    });
  }

  check('WH-X18', async ({ client }) => {
    const eventId = freshEventId();
    const other = freshEventId();
    const res = await client.sendWebhook('hmac', { eventId, repeatHeaders: { 'Webhook-Event-Id': [other] }, label: 'webhook: Webhook-Event-Id twice' });
    assertSent(res, 'webhook-event-id', `${eventId}, ${other}`);
    expectStatus(res, REFUSED, 'Webhook-Event-Id sent twice (the signed ID first)');
  });

  check('WH-X19', async ({ client }) => {
    const other = validSignature('another secret', { timestamp: '0', eventId: freshEventId(), body: '{}' });
    const res = await client.sendWebhook('hmac', { repeatHeaders: { 'Webhook-Signature': [other] }, label: 'webhook: Webhook-Signature twice' });
    expectStatus(res, REFUSED, 'Webhook-Signature sent twice (the valid signature first)');
  });

  check('WH-X20', async ({ client }) => {
    const timestamp = timestampOf(await client.now());
    const next = String(Number(timestamp) + 1);
    const res = await client.sendWebhook('hmac', { timestamp, repeatHeaders: { 'Webhook-Timestamp': [next] }, label: 'webhook: Webhook-Timestamp twice' });
    assertSent(res, 'webhook-timestamp', `${timestamp}, ${next}`);
    expectStatus(res, REFUSED, 'Webhook-Timestamp sent twice (the signed time first)');
  });

  check('WH-X21', async ({ client, faker, profile }) => {
    const parts = { timestamp: timestampOf(await client.now()), eventId: freshEventId(), body: JSON.stringify(sampleBody(faker)) };
    const valid = validSignature(hmacListener(profile).secret, parts);
    const other = validSignature('another secret', parts);
    const res = await client.sendWebhook('hmac', { ...parts, hmac: { signature: other }, repeatHeaders: { 'Webhook-Signature': [valid] }, label: 'webhook: Webhook-Signature twice, valid last' });
    assertSent(res, 'webhook-signature', `${other}, ${valid}`, (text) => client.recorder.redact(text));
    expectStatus(res, REFUSED, 'Webhook-Signature sent twice (the valid signature last)');
  });

  // Ruling 24, MUST: whichever line a service reads, a repeated line never buys a second run or a pass
  // through the window. The replay is the accepted request byte for byte, plus one line.
  check('WH-X25', async ({ client, faker, profile }) => {
    const { listenerId } = hmacListener(profile);
    const parts = { timestamp: timestampOf(await client.now()), eventId: freshEventId(), body: JSON.stringify(sampleBody(faker)) };
    expectSetupAccepted(await client.sendWebhook('hmac', { ...parts, label: 'webhook: the request to replay' }), 'the valid request that is then replayed');
    const other = freshEventId();
    const res = await client.sendWebhook('hmac', { ...parts, repeatHeaders: { 'Webhook-Event-Id': [other] }, label: 'webhook: replay with a second Webhook-Event-Id line' });
    assertSent(res, 'webhook-event-id', `${parts.eventId}, ${other}`);
    const what = `the accepted request replayed with a fresh UUID v4 (${other}) in a second Webhook-Event-Id line`;
    expectStatus(res, NOT_RUN_AGAIN, what);
    await expectExactlyOneRun(client, listenerId, parts.eventId, what);
    await expectNoRun(client, listenerId, other, what);
  }, { waitsMs: RUN_SETTLE_MS + NO_RUN_WATCH_MS });

  check('WH-X26', async ({ client, faker }) => {
    const now = Math.floor(await client.now());
    const stale = String(now - STALE_SECONDS);
    const res = await client.sendWebhook('hmac', {
      timestamp: stale,
      body: JSON.stringify(sampleBody(faker)),
      repeatHeaders: { 'Webhook-Timestamp': [String(now)] },
      label: 'webhook: stale signed timestamp, current time in a second line',
    });
    assertSent(res, 'webhook-timestamp', `${stale}, ${now}`);
    expectStatus(res, REFUSED, `request signed with a timestamp ${STALE_SECONDS} s old, the current time in a second Webhook-Timestamp line`);
  });

  for (const [id, name] of FORWARDING) {
    check(id, async ({ client, profile }) => withForwardingHint(async () => {
      const address = spoofedAddress(profile.webhooks.ipRestricted?.allowedCidrs);
      const headers = forwardingHeader(name, address);
      const res = await client.sendWebhook('ipRestricted', { headers, label: `webhook: ${name} claiming ${address}` });
      expectStatus(res, 403, `valid request from outside the listener's CIDRs with ${name}: ${Object.values(headers)[0]} (inside them)`);
    }));
  }
});
