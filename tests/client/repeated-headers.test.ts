/** `repeatHeaders` sends further lines of a header (RFC 7230 §3.2.2); token requests take extra headers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import type { TargetClient } from '../../src/client/types.js';
import { json, makeProfile, makeSecrets, startFixture, type Fixture } from './support/fixtures.js';

let fixture: Fixture;
let client: TargetClient;
const rawHeaders: string[][] = [];

beforeAll(async () => {
  const secrets = await makeSecrets();
  fixture = await startFixture((req, res) => {
    rawHeaders.push(req.rawHeaders);
    json(res, 200, {});
  });
  client = createTargetClient(makeProfile(fixture.url, secrets, { hooks: undefined }), { seed: 'fixed' });
});

afterAll(async () => {
  await client.close();
  await fixture.close();
});

/** The values of every line of one header, in the order sent. */
function lines(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) out.push(raw[i + 1]!);
  return out;
}

describe('repeated headers', () => {
  it('sends the built header first, then each further line, and records them joined', async () => {
    const eventId = '8b0f7f36-3a57-4e0e-9a57-3c1d1c2f3e4a';
    const res = await client.sendWebhook('hmac', { eventId, repeatHeaders: { 'Webhook-Event-Id': ['second', 'third'] } });
    expect(lines(rawHeaders.at(-1)!, 'webhook-event-id')).toEqual([eventId, 'second', 'third']);
    expect(res.exchange.request.headers['webhook-event-id']).toBe(`${eventId}, second, third`);
    // Every other header is sent once.
    expect(lines(rawHeaders.at(-1)!, 'webhook-signature')).toHaveLength(1);
  });

  it('without repeatHeaders each header is one line', async () => {
    await client.sendWebhook('hmac', {});
    expect(lines(rawHeaders.at(-1)!, 'webhook-event-id')).toHaveLength(1);
  });

  it('token requests carry extra headers after the defaults', async () => {
    await client.requestToken({ method: 'secret', headers: { 'X-Forwarded-For': '203.0.113.1' } });
    expect(lines(rawHeaders.at(-1)!, 'x-forwarded-for')).toEqual(['203.0.113.1']);
    expect(lines(rawHeaders.at(-1)!, 'content-type')).toEqual(['application/x-www-form-urlencoded']);
  });
});
