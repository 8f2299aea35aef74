/**
 * The observer chain and the request log (issue 45): one exchange per answered request, built from the
 * request and answer it was given (the same objects, not copies); the diagnosis read from a refused answer
 * only (its `mistake` and `error_description`), none without a `mistake`; an observer that throws changes
 * no answer; the ring keeps the last 200, newest first, and hands out only what came after a number.
 */
import { describe, expect, it } from 'vitest';
import type { ReferenceRequest, ReferenceResponse } from '../../src/reference/types.js';
import type { SandboxExchange } from '../../src/sandbox/exchange.js';
import { listenerOf, observeHandler } from '../../src/sandbox/observe.js';
import { createRequestLog, REQUEST_LOG_SIZE } from '../../src/sandbox/request-log.js';

function request(url: string, body = ''): ReferenceRequest {
  return { method: 'POST', url, headers: { 'content-type': 'application/json' }, remoteAddress: '127.0.0.1', body: Buffer.from(body) };
}

const answer = (status: number, body: unknown): ReferenceResponse => ({ status, headers: {}, body: Buffer.from(JSON.stringify(body)) });

describe('observeHandler', () => {
  it('hands every observer one exchange holding the request and answer by reference', async () => {
    const seen: SandboxExchange[][] = [[], []];
    const sent = request('/api/v1/webhooks/incoming/wh_ABC?x=1', '{"a":1}');
    const given = answer(200, { ok: true });
    const handler = observeHandler(async () => given, () => [(e) => void seen[0]!.push(e), (e) => void seen[1]!.push(e)]);
    expect(await handler(sent)).toBe(given);
    expect(seen[0]).toHaveLength(1);
    const exchange = seen[0]![0]!;
    expect(seen[1]![0]).toBe(exchange);
    expect(exchange.requestBody).toBe(sent.body);
    expect(exchange.requestHeaders).toBe(sent.headers);
    expect(exchange).toMatchObject({ method: 'POST', target: '/api/v1/webhooks/incoming/wh_ABC?x=1', listener: 'wh_ABC', status: 200, responseBody: '{"ok":true}' });
    expect(exchange.diagnosis).toBeUndefined();
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reads the diagnosis of a refused answer: mistake and error_description; none without a mistake', async () => {
    const refused = { error: 'unauthorized', error_description: 'the key was the base64url-decoded secret, not its UTF-8 bytes', mistake: 'hmac-key-decoded' };
    const cases: Array<[ReferenceResponse, unknown]> = [
      [answer(401, refused), { mistake: 'hmac-key-decoded', sentence: refused.error_description }],
      [answer(401, { error: 'unauthorized', error_description: 'signature mismatch' }), undefined],
      [{ status: 400, headers: {}, body: 'not json' }, undefined],
      // A 200 is never parsed for one, whatever its body says.
      [answer(200, refused), undefined],
    ];
    for (const [given, expected] of cases) {
      let exchange: SandboxExchange | undefined;
      await observeHandler(async () => given, () => [(e) => void (exchange = e)])(request('/auth/v1/token'));
      expect(exchange?.diagnosis).toEqual(expected);
    }
  });

  it('an observer that throws changes no answer and stops no other observer', async () => {
    const given = answer(200, {});
    let second = 0;
    const handler = observeHandler(async () => given, () => [() => { throw new Error('observer bug'); }, () => void (second += 1)]);
    expect(await handler(request('/x'))).toBe(given);
    expect(second).toBe(1);
  });

  it('reads the observers per request: one added later sees the later requests', async () => {
    const observers: Array<(e: SandboxExchange) => void> = [];
    const handler = observeHandler(async () => answer(200, {}), () => observers);
    await handler(request('/first'));
    const seen: string[] = [];
    observers.push((e) => void seen.push(e.target));
    await handler(request('/second'));
    expect(seen).toEqual(['/second']);
  });

  it('names the listener of a webhook path only', () => {
    expect(listenerOf('/api/v1/webhooks/incoming/wh_A%42C')).toBe('wh_ABC');
    expect(listenerOf('/api/v1/webhooks/incoming/')).toBeUndefined();
    expect(listenerOf('/api/v1/webhooks/incoming/a/b')).toBeUndefined();
    expect(listenerOf('/api/v1/webhooks/incoming/%E0%A4%A')).toBeUndefined();
    expect(listenerOf('/auth/v1/token')).toBeUndefined();
  });
});

describe('the request log', () => {
  const exchange = (n: number): SandboxExchange => ({ at: n, method: 'GET', target: `/${n}`, requestHeaders: {}, requestBody: new Uint8Array(), status: 200, responseBody: '', durationMs: 0 });

  it(`keeps the last ${REQUEST_LOG_SIZE}, newest first, and what came after a number`, () => {
    const log = createRequestLog();
    expect(log.since(0)).toEqual([]);
    for (let n = 1; n <= 450; n += 1) log.observer(exchange(n));
    expect(log.lastSeq).toBe(450);
    const all = log.since(0);
    expect(all).toHaveLength(REQUEST_LOG_SIZE);
    expect(all[0]).toEqual({ seq: 450, exchange: exchange(450) });
    expect(all.at(-1)?.seq).toBe(251);
    expect(log.since(447).map((entry) => entry.exchange.target)).toEqual(['/450', '/449', '/448']);
    expect(log.since(450)).toEqual([]);
  });
});
