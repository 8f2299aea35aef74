/**
 * Inbound webhooks with HMAC (service.md §4.3, §5.4, §6, §7; rulings 13–21): every status code, the order
 * of checks, idempotency and the runs. Clock-moving tests are last.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from './support/sandbox.js';
import { uuid } from './support/wire.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => t?.close());

const hmac = () => t.profile.webhooks.hmac;

describe('accepted requests', () => {
  it('answers 200 and runs the automation once with the JSON body as context', async () => {
    const eventId = uuid();
    const body = JSON.stringify({ user: { id: 'u-1' }, action: 'grant', list: [1, 2, 3] });
    const response = await t.hmac(hmac(), { body, eventId });
    expect(response.status).toBe(200);
    const runs = (await t.runs(hmac().listenerId)).filter((run) => run.eventId === eventId);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.context).toEqual(JSON.parse(body));
  });
  it('accepts a charset on Content-Type, an upper-case event ID, any JSON value', async () => {
    expect((await t.hmac(hmac(), { headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(200);
    expect((await t.hmac(hmac(), { eventId: uuid().toUpperCase() })).status).toBe(200);
    expect((await t.hmac(hmac(), { body: '[1,"two",null]' })).status).toBe(200);
  });
  it('accepts timestamps 270 s either side of the server clock', async () => {
    const now = Math.floor(await t.clock());
    expect((await t.hmac(hmac(), { timestamp: String(now - 270) })).status).toBe(200);
    expect((await t.hmac(hmac(), { timestamp: String(now + 270) })).status).toBe(200);
  });
  it('accepts a body of exactly the limit and refuses one byte more with 413', async () => {
    const limit = t.profile.limits.webhookBodyBytes;
    const exact = JSON.stringify({ pad: 'x'.repeat(limit - 10) });
    expect(Buffer.byteLength(exact)).toBe(limit);
    expect((await t.hmac(hmac(), { body: exact })).status).toBe(200);
    const over = JSON.stringify({ pad: 'x'.repeat(limit - 9) });
    expect((await t.hmac(hmac(), { body: over })).status).toBe(413);
    // Far larger: answered without reading it all.
    expect((await t.hmac(hmac(), { body: Buffer.alloc(5 * 1024 * 1024, 0x20) })).status).toBe(413);
  });
});

describe('400: headers, timestamp, event ID, JSON', () => {
  it('refuses missing headers', async () => {
    for (const name of ['content-type', 'webhook-timestamp', 'webhook-event-id']) {
      const response = await t.hmac(hmac(), { headers: { [name]: null } });
      expect({ name, status: response.status }).toEqual({ name, status: 400 });
    }
  });
  it('refuses timestamps out of range, in milliseconds, or not numeric', async () => {
    const now = Math.floor(await t.clock());
    for (const timestamp of [String(now - 330), String(now + 330), String(now * 1000), 'yesterday', '', '1.7e9', `${now}.5`, `-${now}`]) {
      const response = await t.hmac(hmac(), { timestamp });
      expect({ timestamp, status: response.status }).toEqual({ timestamp, status: 400 });
    }
  });
  it('refuses event IDs that are not UUID v4', async () => {
    const v1 = 'f47ac10b-58cc-11cf-a447-00aa00bf8c11';
    const badVariant = 'f47ac10b-58cc-4372-c567-0e02b2c3d479';
    for (const eventId of [v1, badVariant, '00000000-0000-0000-0000-000000000000', 'event-1', `${uuid()}x`, `{${uuid()}}`]) {
      const response = await t.hmac(hmac(), { eventId });
      expect({ eventId, status: response.status }).toEqual({ eventId, status: 400 });
    }
  });
  it('refuses invalid JSON and a non-JSON Content-Type', async () => {
    for (const body of ['{"a":', '', 'not json', '\u00ff']) {
      expect((await t.hmac(hmac(), { body })).status).toBe(400);
    }
    expect((await t.hmac(hmac(), { body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) })).status).toBe(400);
    expect((await t.hmac(hmac(), { headers: { 'content-type': 'text/plain' } })).status).toBe(400);
  });
});

describe('401: HMAC (ruling 21)', () => {
  it('refuses a missing, wrong, reordered, decoded-key or standard-base64 signature', async () => {
    const l = hmac();
    const timestamp = String(Math.floor(await t.clock()));
    const eventId = uuid();
    const body = '{"a":1}';
    const decodedKey = createHmac('sha256', Buffer.from(l.secret, 'base64url')).update(`${timestamp}.${eventId}.${body}`).digest('base64url');
    const reordered = createHmac('sha256', l.secret).update(`${eventId}.${timestamp}.${body}`).digest('base64url');
    const standard = createHmac('sha256', l.secret).update(`${timestamp}.${eventId}.${body}`).digest('base64');
    for (const signature of [null, '', 'nope', decodedKey, reordered, standard.includes('+') || standard.includes('/') ? standard : `${standard}=`]) {
      const response = await t.hmac(l, { body, timestamp, eventId, headers: { 'webhook-signature': signature } });
      expect({ signature, status: response.status }).toEqual({ signature, status: 401 });
    }
  });
  it('refuses a body, timestamp or event ID changed after signing, and another listener\'s secret', async () => {
    const now = Math.floor(await t.clock());
    expect((await t.hmac(hmac(), { body: '{"a":2}', sign: { body: '{"a":1}' } })).status).toBe(401);
    expect((await t.hmac(hmac(), { timestamp: String(now), sign: { timestamp: String(now - 1) } })).status).toBe(401);
    expect((await t.hmac(hmac(), { sign: { eventId: uuid() } })).status).toBe(401);
    expect((await t.hmac(hmac(), { sign: { secret: t.profile.webhooks.hmacSecond.secret } })).status).toBe(401);
  });
});

describe('403, 404, inactive', () => {
  it('answers 403 outside the listener\'s CIDRs and 404 for an unknown listener', async () => {
    expect((await t.hmac(t.profile.webhooks.ipRestricted)).status).toBe(403);
    expect((await t.hmac({ listenerId: 'wh_DOESNOTEXIST', secret: 'x' })).status).toBe(404);
  });
  it('does not answer 200 for an inactive automation, and does not run it', async () => {
    const inactive = t.profile.webhooks.inactive;
    const response = await t.hmac(inactive);
    expect(response.status).toBe(422);
    expect(await t.runs(inactive.listenerId)).toEqual([]);
  });
});

describe('idempotency (rulings 17, 18)', () => {
  it('answers 409 to a duplicate and does not run again', async () => {
    const eventId = uuid();
    expect((await t.hmac(hmac(), { eventId })).status).toBe(200);
    expect((await t.hmac(hmac(), { eventId })).status).toBe(409);
    expect((await t.hmac(hmac(), { eventId: eventId.toUpperCase() })).status).toBe(409);
    expect((await t.runs(hmac().listenerId)).filter((run) => run.eventId === eventId)).toHaveLength(1);
  });
  it('keeps event IDs per listener', async () => {
    const eventId = uuid();
    expect((await t.hmac(hmac(), { eventId })).status).toBe(200);
    expect((await t.hmac(t.profile.webhooks.hmacSecond, { eventId })).status).toBe(200);
  });
  it('authenticates before the idempotency check: bad auth never consumes the ID, a bad duplicate gets 401', async () => {
    const eventId = uuid();
    expect((await t.hmac(hmac(), { eventId, headers: { 'webhook-signature': 'bad' } })).status).toBe(401);
    expect((await t.hmac(hmac(), { eventId })).status).toBe(200);
    expect((await t.hmac(hmac(), { eventId, headers: { 'webhook-signature': 'bad' } })).status).toBe(401);
  });
  it('answers exactly one 200 among 30 concurrent duplicates', async () => {
    const eventId = uuid();
    const timestamp = String(Math.floor(await t.clock()));
    const responses = await Promise.all(Array.from({ length: 30 }, () => t.hmac(hmac(), { eventId, timestamp, body: '{"race":true}' })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);
    expect((await t.runs(hmac().listenerId)).filter((run) => run.eventId === eventId)).toHaveLength(1);
  });
  it('forgets an event ID after 7 days (clock hook)', async () => {
    const eventId = uuid();
    expect((await t.hmac(hmac(), { eventId })).status).toBe(200);
    await t.advance(6 * 86_400);
    expect((await t.hmac(hmac(), { eventId })).status).toBe(409);
    await t.advance(86_400 + 1);
    expect((await t.hmac(hmac(), { eventId })).status).toBe(200);
    expect(t.sandbox.reference.deps.eventStore.size()).toBeGreaterThan(0);
  });
});
