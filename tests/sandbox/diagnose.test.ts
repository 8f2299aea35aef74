/**
 * diagnose() on requests a client library cannot easily build (a NumericDate JSON cannot hold as a
 * double), and the observer wrapper reading the diagnosis back from the answer it wraps (the contract
 * with the inspector: `mistake` and `error_description` of a refused body; none on a 200).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceResponse } from '../../src/reference/types.js';
import { diagnose } from '../../src/sandbox/diagnose.js';
import type { SandboxExchange } from '../../src/sandbox/exchange.js';
import { createIssuedTokens } from '../../src/sandbox/issued-tokens.js';
import { observeHandler } from '../../src/sandbox/observe.js';
import { RefusedRequest, sandboxFacts, type SandboxFacts } from '../../src/sandbox/refused-request.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';

let sandbox: Sandbox;
let facts: SandboxFacts;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'sandbox-diagnose', logger: () => {} });
  facts = sandboxFacts(sandbox.tenant, () => 1_800_000_000, createIssuedTokens());
});
afterAll(async () => sandbox?.close());

const part = (json: string): string => Buffer.from(json).toString('base64url');

describe('diagnose', () => {
  it('an exp of 1e400 (Infinity once parsed) is named as the wrong form, not as "too far ahead"', () => {
    const jwt = `${part('{"alg":"EdDSA","kid":"k"}')}.${part('{"sub":"s","aud":"a","exp":1e400,"jti":"j","htm":"POST","htb_s256":"x"}')}.c2ln`;
    const request = { method: 'POST', url: `/api/v1/webhooks/incoming/${sandbox.tenant.listeners.jwt.listenerId}`, headers: { authorization: `Bearer ${jwt}` }, remoteAddress: '127.0.0.1', body: Buffer.from('{}') };
    const diagnosis = diagnose(new RefusedRequest(request, 401, 'unauthorized', 'JWT refused (exp-too-far)', facts));
    expect(diagnosis).toEqual({ mistake: 'jwt-numeric-date-form', sentence: 'the webhook JWT\'s exp is the number "Infinity": it must be a JSON number of Unix seconds, e.g. 1700000000' });
  });
});

describe('observeHandler', () => {
  it('hands every observer the exchange, with the diagnosis read from a refused body only', async () => {
    const seen: SandboxExchange[] = [];
    const answers: ReferenceResponse[] = [
      { status: 401, headers: {}, body: '{"error":"unauthorized","error_description":"the sentence","mistake":"hmac-digest-hex","error_uri":"docs/sandbox.md#hmac-digest-hex"}' },
      { status: 200, headers: {}, body: '{"accepted":true,"mistake":"not read on a 200"}' },
      { status: 404, headers: {}, body: '{"error":"not_found","error_description":"no such resource"}' },
    ];
    let next = 0;
    const handler = observeHandler(async () => answers[next++]!, () => [(exchange) => seen.push(exchange)]);
    for (const url of ['/api/v1/webhooks/incoming/wh_a?x=1', '/api/v1/webhooks/incoming/wh_b', '/nope']) {
      await handler({ method: 'POST', url, headers: { a: 'b' }, remoteAddress: '127.0.0.1', body: Buffer.from('body') });
    }
    expect(seen.map((e) => [e.status, e.listener, e.diagnosis, e.target])).toEqual([
      [401, 'wh_a', { mistake: 'hmac-digest-hex', sentence: 'the sentence' }, '/api/v1/webhooks/incoming/wh_a?x=1'],
      [200, 'wh_b', undefined, '/api/v1/webhooks/incoming/wh_b'],
      [404, undefined, undefined, '/nope'],
    ]);
    expect(seen[0]!.responseBody).toBe(answers[0]!.body);
  });
});
