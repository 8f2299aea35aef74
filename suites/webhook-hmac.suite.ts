/**
 * §5.4 HMAC (ruling 21): the one valid signature is base64url-without-padding HMAC-SHA256, keyed with the
 * UTF-8 bytes of the secret as displayed, over `<timestamp>.<event_id>.<raw body>`. Every check sends an
 * otherwise valid request (current timestamp, fresh UUID v4, valid JSON) whose signature is wrong in one
 * way only, and expects 401. Where the client's options cannot express the mistake, the check computes the
 * signature itself from the exact timestamp, event ID and body it sends.
 */
import { generateHmacSecret, type HmacPart } from '../src/crypto/hmac.js';
import type { HmacOptions } from '../src/client/types.js';
import type { Faker } from '../src/data/fake.js';
import type { RequirementId } from '../src/requirements/catalogue.js';
import { check, type CheckContext } from './support/check.js';
import { group } from './support/group.js';
import { expectStatus } from './support/expect.js';
import { assertSent, expectAccepted, expectSetupAccepted, outcome } from './support/webhook-expect.js';
import {
  freshEventId,
  hmacListener,
  partsWithUrlSafeChars,
  sampleBody,
  timestampOf,
  validSignature,
  type SignedParts,
} from './support/webhook-values.js';

/** Timestamp, event ID and body of one request, fixed before signing so the check can sign them itself. */
async function partsFor(ctx: CheckContext): Promise<SignedParts> {
  return { timestamp: timestampOf(await ctx.client.now()), eventId: freshEventId(), body: JSON.stringify(sampleBody(ctx.faker)) };
}

/**
 * Sends the parts with the given Webhook-Signature value, or signed by the client over what `hmac` names
 * instead of what is sent (so a reproduction can sign it again later), and expects 401.
 */
async function expectSignatureRefused(ctx: CheckContext, parts: SignedParts, signature: string | HmacOptions, what: string): Promise<void> {
  const hmac = typeof signature === 'string' ? { signature } : signature;
  const res = await ctx.client.sendWebhook('hmac', { ...parts, hmac, label: `webhook hmac: ${what}` });
  assertSent(res, 'webhook-timestamp', parts.timestamp);
  assertSent(res, 'webhook-event-id', parts.eventId);
  expectStatus(res, 401, `signature ${what}`);
}

/** The permutations of the signature parts other than the specified one that ruling 21 probes. */
const OTHER_ORDERS: ReadonlyArray<[RequirementId, HmacPart[]]> = [
  ['WH-HMAC-05', ['eventId', 'timestamp', 'body']],
  ['WH-HMAC-06', ['body', 'timestamp', 'eventId']],
  ['WH-HMAC-07', ['timestamp', 'body', 'eventId']],
];

/** Another JSON body of the same shape, guaranteed to differ from `body`. */
function otherBody(faker: Faker, body: string): string {
  let other = JSON.stringify(sampleBody(faker));
  while (other === body) other = JSON.stringify(sampleBody(faker));
  return other;
}

group.concurrent('§5.4 Webhook HMAC', () => {
  check('WH-HMAC-01', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { label: 'webhook hmac: valid signature' });
    expectAccepted(res, 'correctly signed request');
  });

  check('WH-HMAC-02', async ({ client, profile }) => {
    const { secret } = hmacListener(profile);
    let other = generateHmacSecret();
    while (other === secret) other = generateHmacSecret();
    const res = await client.sendWebhook('hmac', { hmac: { secret: other }, label: 'webhook hmac: another secret' });
    expectStatus(res, 401, 'signature made with another secret');
  });

  check('WH-HMAC-03', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { omitHeaders: ['Webhook-Signature'], label: 'webhook hmac: no signature header' });
    assertSent(res, 'webhook-signature', null);
    expectStatus(res, 401, 'request without Webhook-Signature');
  });

  check('WH-HMAC-04', async (ctx) => {
    await expectSignatureRefused(ctx, await partsFor(ctx), '', 'empty');
  });

  for (const [id, order] of OTHER_ORDERS) {
    check(id, async ({ client }) => {
      const res = await client.sendWebhook('hmac', { hmac: { order }, label: `webhook hmac: parts in order ${order.join('.')}` });
      expectStatus(res, 401, `signature over <${order.join('>.<')}>`);
    });
  }

  check('WH-HMAC-08', async ({ client }) => {
    const res = await client.sendWebhook('hmac', { hmac: { decodedKey: true }, label: 'webhook hmac: base64url-decoded key' });
    expectStatus(res, 401, 'signature keyed with the base64url-decoded secret');
  });

  check('WH-HMAC-09', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { signedBody: otherBody(ctx.faker, parts.body) }, 'over another body (body changed after signing)');
  });

  check('WH-HMAC-10', async (ctx) => {
    const parts = await partsFor(ctx);
    // One second apart: both inside the 5-minute window, so only the signature can be wrong.
    await expectSignatureRefused(ctx, parts, { signedTimestamp: String(Number(parts.timestamp) - 1) }, 'over the previous second (timestamp changed after signing)');
  });

  check('WH-HMAC-11', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { signedEventId: freshEventId() }, 'over another event ID (event ID changed after signing)');
  });

  check('WH-HMAC-12', async (ctx) => {
    const { secret } = hmacListener(ctx.profile);
    const timestamp = timestampOf(await ctx.client.now());
    const body = JSON.stringify(sampleBody(ctx.faker));
    const parts = partsWithUrlSafeChars(secret, timestamp, body);
    if (!parts) return ctx.skip('no event ID among 40 gave a signature with - or _ (probability ~1e-24)');
    // Control first (ruling 30): the same kind of request, signed as §5.4 says, is accepted, so a 401 below
    // is about the alphabet.
    const control = await partsFor(ctx);
    const res = await ctx.client.sendWebhook('hmac', { ...control, hmac: { signature: validSignature(secret, control) }, label: 'webhook hmac: control, base64url' });
    expectSetupAccepted(res, 'the control request signed in base64url');
    const valid = validSignature(secret, parts);
    const standard = valid.replace(/-/g, '+').replace(/_/g, '/');
    await expectSignatureRefused(ctx, parts, standard, `in the standard base64 alphabet ("${standard}" for "${valid}")`);
  });

  check('WH-HMAC-13', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { signedBody: '' }, 'over an empty body');
  });

  check('WH-HMAC-14', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { mangle: { op: 'drop-last', chars: 1 } }, 'truncated by one character');
  });

  check('WH-HMAC-15', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { hex: true }, 'as hex digits');
  });

  check('WH-HMAC-16', async (ctx) => {
    const parts = await partsFor(ctx);
    const reformatted = JSON.stringify(JSON.parse(parts.body), null, 2);
    await expectSignatureRefused(ctx, { ...parts, body: reformatted }, { signedBody: parts.body }, 'over the compact JSON while the body sent is the same JSON indented');
  });

  check('WH-HMAC-17', async (ctx) => {
    const parts = await partsFor(ctx);
    await expectSignatureRefused(ctx, parts, { separator: '' }, 'over the parts joined without periods');
  });

  check('WH-HMAC-18', async (ctx) => {
    const { secret } = hmacListener(ctx.profile);
    const parts = await partsFor(ctx);
    // 32 digest bytes are 43 base64 characters, so padding adds exactly one "=".
    const padded = `${validSignature(secret, parts)}=`;
    const res = await ctx.client.sendWebhook('hmac', { ...parts, hmac: { padded: true }, label: 'webhook hmac: padded signature' });
    // The recorder redacts signatures: what was sent is compared in its redacted form.
    assertSent(res, 'webhook-signature', padded, (text) => ctx.client.recorder.redact(text));
    ctx.note(`valid signature with "=" padding: ${outcome(res)}`);
  });
});
