/**
 * The recorder redacts an exchange when it is first read, not when it is recorded (recorder.ts,
 * deferredExchange): every way of reading one must still see only redacted text, and the same text the
 * recorder made when it redacted at once.
 */
import { describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { createRecorder, REDACTED, Redactor } from '../../src/client/index.js';
import type { RawExchange } from '../../src/client/recorder.js';

const SECRET = 'cs-a-profile-secret-0123456789';
const LATER = 'tok-an-access-token-learned-later-42';
const SIGNATURE = 'v1=an-hmac-signature-of-one-request';

function raw(body: string): RawExchange {
  return {
    label: `token: with ${SECRET}`,
    request: {
      method: 'POST',
      url: `https://api.example/x?key=${encodeURIComponent(SECRET)}`,
      headers: { authorization: `Bearer ${LATER}`, 'x-signature': SIGNATURE, 'content-type': 'application/json' },
      body: Buffer.from(body),
    },
    response: { status: 200, headers: { 'set-cookie': 'session=1', 'x-echo': Buffer.from(SECRET).toString('base64') }, body: Buffer.from(`{"access_token":"${LATER}","echo":"${SIGNATURE}"}`) },
    startedAt: 1,
    durationMs: 2,
    ephemeral: [SIGNATURE],
  };
}

function texts(value: unknown): string {
  return JSON.stringify(value);
}

describe('an exchange redacted when first read', () => {
  it('shows no secret to JSON, a spread, a structured clone or a message to another thread', async () => {
    const recorder = createRecorder({ secrets: [SECRET] });
    const exchange = recorder.record(raw(`{"client_secret":"${SECRET}","n":1}`));
    // Learned after the request was recorded (a token the target issued later): redacted all the same.
    recorder.addFixedSecret(LATER);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<unknown>((resolve) => port2.once('message', resolve));
    port1.postMessage(exchange);
    const views = [texts(exchange), texts({ ...exchange }), texts(structuredClone(exchange)), texts(await received), texts(recorder.all())];
    port1.close();
    for (const view of views) {
      for (const secret of [SECRET, encodeURIComponent(SECRET), Buffer.from(SECRET).toString('base64'), LATER, SIGNATURE]) expect(view).not.toContain(secret);
      expect(view).toContain(REDACTED);
    }
    // One redaction, read the same way each time.
    expect(new Set(views.slice(0, 4)).size).toBe(1);
  });

  it('reads as the exchange redacted at once did: same keys in the same order, same texts', () => {
    const body = `{"client_secret":"${SECRET}","pad":"${'x'.repeat(9000)}"}`;
    const exchange = createRecorder({ secrets: [SECRET, LATER], recordBodyBytes: 4096 }).record(raw(body));
    expect(Object.keys(exchange)).toEqual(['seq', 'label', 'request', 'response', 'startedAt', 'durationMs']);
    const redactor = new Redactor([SECRET, LATER]);
    expect(exchange.label).toBe(redactor.redact(`token: with ${SECRET}`));
    expect(exchange.request.url).toBe(redactor.redact(raw('').request.url));
    expect(exchange.request.headers).toEqual({ authorization: `Bearer ${REDACTED}`, 'x-signature': REDACTED, 'content-type': 'application/json' });
    // The body is cut at the bound, its whole size kept.
    expect(exchange.request.bodyBytes).toBe(Buffer.byteLength(body));
    expect(exchange.request.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(exchange.request.body ?? '')).toBeLessThanOrEqual(4096);
    expect(exchange.request.body?.startsWith(`{"client_secret":"${REDACTED}","pad":"xxx`)).toBe(true);
    expect(exchange.response).toEqual({
      status: 200,
      headers: { 'set-cookie': REDACTED, 'x-echo': REDACTED },
      body: `{"access_token":"${REDACTED}","echo":"${REDACTED}"}`,
      bodyBytes: Buffer.byteLength(`{"access_token":"${LATER}","echo":"${SIGNATURE}"}`),
      bodyTruncated: false,
    });
  });

  it('redacts a JWT that was recent at the request, though it left the recent set before the read', () => {
    const jwt = (n: number): string => `eyJhbGciOiJFZERTQSJ9.eyJuIjo${n}fQ.c2lnbmF0dXJlLW9mLWp3dC1udW1iZXI${n}`;
    const recorder = createRecorder();
    recorder.addSecret(jwt(0));
    // The JWT base64-encoded inside a body: only its registered shapes catch it (the raw-JWT rule does not).
    const hidden = Buffer.from(`token=${jwt(0)}`).toString('base64');
    const exchange = recorder.record({ request: { method: 'POST', url: 'https://api.example/', headers: {}, body: Buffer.from(hidden) }, startedAt: 0, durationMs: 0 });
    for (let n = 1; n <= 40; n += 1) recorder.addSecret(jwt(n));
    expect(recorder.redact(hidden)).toBe(hidden);
    expect(exchange.request.body).not.toBe(hidden);
    expect(exchange.request.body).toContain(REDACTED);
  });

  it('carriesSecret says what comparing redact with the text says', () => {
    const recorder = createRecorder({ secrets: [SECRET] });
    recorder.addEphemeralSecret(SIGNATURE);
    const samples = [
      'nothing here',
      `a ${SECRET} b`,
      `x=${encodeURIComponent(SECRET)}`,
      Buffer.from(`pre ${SECRET}`).toString('base64'),
      `sig ${SIGNATURE}`,
      '{"client_secret":"anything"}',
      '{"client_secret":""}',
      'access_token=abc&x=1',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
      SECRET.slice(0, -1),
      '',
    ];
    for (const text of samples) expect(recorder.carriesSecret(text), text).toBe(recorder.redact(text) !== text);
  });

  it('still knows a request\'s signature after another check sent 300 webhooks meanwhile (IDEM-X01 does)', () => {
    const recorder = createRecorder();
    recorder.addEphemeralSecret(SIGNATURE);
    for (let n = 0; n < 300; n += 1) recorder.addEphemeralSecret(`v1=another-signature-of-request-${String(n).padStart(4, '0')}`);
    expect(recorder.redact(`sent ${SIGNATURE}`)).toBe(`sent ${REDACTED}`);
  });
});
