/**
 * The webhook hot path's shortcuts give the answers the general code gives (issue 49): the router's
 * webhook shortcut finds the listener segment parseTarget's segments find, and the 200 built by
 * concatenation is byte for byte the JSON the reference wrote with json().
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { hmacSign } from '../../src/crypto/hmac.js';
import { json, parseTarget } from '../../src/reference/http.js';
import { createReference, webhookSegment } from '../../src/reference/reference.js';
import type { ReferenceRequest, ReferenceResponse } from '../../src/reference/types.js';
import { WEBHOOK_PATH_PREFIX } from '../../src/reference/webhooks.js';

/** The general route's reading of a webhook target: `/api/v1/webhooks/incoming/{one non-empty segment}`. */
function segmentBySplitting(url: string): string | undefined {
  const target = parseTarget(url);
  if (target === undefined || !url.startsWith('/')) return undefined;
  const [first, second, third, fourth, ...rest] = target.segments;
  const matches = first === 'api' && second === 'v1' && third === 'webhooks' && fourth === 'incoming' && rest.length === 1 && rest[0] !== '';
  return matches ? rest[0] : undefined;
}

describe('the router\'s webhook shortcut', () => {
  it('finds the listener segment where splitting the target finds it, and nothing elsewhere', () => {
    const tails = ['l1', 'l%20x', '', '/', 'l1/', 'l1/x', 'l1?', 'l1?a=/b', 'l1#f/g', 'l1#', '?x', '#x', 'l1?x#y/z', '%zz', 'a?b?c', '//'];
    const heads = [WEBHOOK_PATH_PREFIX, WEBHOOK_PATH_PREFIX.slice(0, -1), `/x${WEBHOOK_PATH_PREFIX}`, 'http://h/api/v1/webhooks/incoming/', '/API/v1/webhooks/incoming/'];
    for (const head of heads) {
      for (const tail of tails) {
        const url = `${head}${tail}`;
        expect({ url, segment: webhookSegment(url) }).toEqual({ url, segment: segmentBySplitting(url) });
      }
    }
  });
});

describe('the 200 of an accepted webhook', () => {
  const secret = 'the-listener-secret';
  const reference = createReference(
    {
      baseUrl: 'http://127.0.0.1:1',
      tenantDomain: '127.0.0.1',
      credentials: [],
      apps: [],
      listeners: [{ method: 'HMAC', listenerId: 'l1', hmacSecret: secret, allowedCidrs: [], published: true, enabled: true }],
    },
    { logger: () => {} },
  );
  afterAll(() => reference.close());
  const send = (eventId: string): Promise<ReferenceResponse> => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = Buffer.from('{"user":{"id":"u-1"}}');
    const request: ReferenceRequest = {
      method: 'POST',
      url: `${WEBHOOK_PATH_PREFIX}l1`,
      headers: {
        'content-type': 'application/json',
        'webhook-timestamp': timestamp,
        'webhook-event-id': eventId,
        'webhook-signature': hmacSign({ secret, timestamp, eventId, body }),
      },
      remoteAddress: '127.0.0.1',
      body,
    };
    return Promise.resolve(reference.handle(request));
  };

  it('is what json() writes, for an event ID in lower, upper and mixed case', async () => {
    for (const eventId of [randomUUID(), randomUUID().toUpperCase(), randomUUID().replace(/[a-f]/, (c) => c.toUpperCase())]) {
      const answer = await send(eventId);
      const general = json(200, { accepted: true, eventId });
      expect({ status: answer.status, headers: { ...answer.headers }, body: answer.body }).toEqual(general);
    }
  });
  it('shares headers nobody can change by accident', async () => {
    const answer = await send(randomUUID());
    expect(() => {
      (answer.headers as Record<string, string>)['x-changed'] = '1';
    }).toThrow(TypeError);
    expect((await send(randomUUID())).headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
  });
});
