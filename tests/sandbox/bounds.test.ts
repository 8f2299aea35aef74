/**
 * The sandbox's bounds: a refused webhook's diagnosis computes at most 64 MACs; a flood of refusals costs
 * at most the time budget's share (past it the plain answer says the diagnosis was skipped); a valid
 * request passes through untouched; the console prints counts, not lines, under a flood, and every line
 * is one escaped line without the query.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasUnsafeControls } from '../../src/escape.js';
import type { ReferenceRequest, ReferenceResponse } from '../../src/reference/types.js';
import { consoleLines } from '../../src/sandbox/console-lines.js';
import { diagnose } from '../../src/sandbox/diagnose.js';
import { diagnosingHandler } from '../../src/sandbox/diagnosing-handler.js';
import type { SandboxExchange } from '../../src/sandbox/exchange.js';
import { MAX_MACS } from '../../src/sandbox/hmac-probe.js';
import { createIssuedTokens } from '../../src/sandbox/issued-tokens.js';
import { RefusedRequest, sandboxFacts, type SandboxFacts } from '../../src/sandbox/refused-request.js';
import { TimeBudget } from '../../src/sandbox/time-budget.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';

let sandbox: Sandbox;
let facts: SandboxFacts;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'sandbox-bounds', logger: () => {} });
  facts = sandboxFacts(sandbox.tenant, () => Date.now() / 1000, createIssuedTokens());
});
afterAll(async () => sandbox?.close());

/** A webhook to the HMAC listener whose signature nothing explains (a hash of random bytes). */
function badWebhook(body: string): ReferenceRequest {
  return {
    method: 'POST',
    url: `/api/v1/webhooks/incoming/${sandbox.tenant.listeners.hmac.listenerId}`,
    headers: {
      'content-type': 'application/json',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-event-id': randomUUID(),
      'webhook-signature': createHash('sha256').update(randomUUID()).digest('base64url'),
    },
    remoteAddress: '127.0.0.1',
    body: Buffer.from(body),
  };
}
const MISMATCH: ReferenceResponse = { status: 401, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":"unauthorized","error_description":"signature mismatch"}' };

describe('the cost of one diagnosis', () => {
  it('tries every HMAC mistake within 64 MACs, on a nested JSON body too', () => {
    for (const body of ['{"a":1}', JSON.stringify({ deep: Array.from({ length: 200 }, (_, i) => ({ i, s: 'x'.repeat(50) })) }), 'not json']) {
      const refused = new RefusedRequest(badWebhook(body), 401, 'unauthorized', 'signature mismatch', facts);
      const diagnosis = diagnose(refused);
      expect(diagnosis?.mistake).toBe('unexplained');
      expect(refused.hmac.macs).toBeGreaterThan(20);
      expect(refused.hmac.macs).toBeLessThanOrEqual(MAX_MACS);
    }
  });

  it('a body nested past the stack is no crash: the diagnosis still answers', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const refused = new RefusedRequest(badWebhook(deep), 401, 'unauthorized', 'signature mismatch', facts);
    expect(diagnose(refused)?.mistake).toBe('unexplained');
  });
});

describe('the time budget', () => {
  it('past its share, refusals get the plain answer and a sentence saying the diagnosis was skipped', async () => {
    let now = 0;
    // Every reading of the clock moves it 5 ms: each diagnosis "costs" 5 ms, the bucket holds 20.
    const budget = new TimeBudget({ share: 0.1, burstMs: 20, clock: () => (now += 5) });
    const handler = diagnosingHandler(async () => MISMATCH, facts, budget);
    const answers = [];
    for (let i = 0; i < 12; i += 1) answers.push(JSON.parse(String((await handler(badWebhook('{}'))).body)));
    const skipped = answers.filter((a) => /diagnosis skipped/.test(a.error_description));
    expect(skipped.length).toBeGreaterThan(4);
    expect(answers[0].error_description).toMatch(/no known mistake explains it/);
    for (const answer of skipped) {
      expect(answer.error).toBe('unauthorized');
      expect(answer.mistake).toBe('unexplained');
      expect(answer.error_description).toMatch(/^signature mismatch \(diagnosis skipped: .* 10% of its time/);
    }
  });

  it('a valid answer passes through as the very object the reference returned', async () => {
    const ok: ReferenceResponse = { status: 200, headers: {}, body: '{"accepted":true}' };
    const handler = diagnosingHandler(async () => ok, facts, new TimeBudget());
    expect(await handler(badWebhook('{}'))).toBe(ok);
  });
});

const exchange = (status: number, target = '/api/v1/apps', more: Partial<SandboxExchange> = {}): SandboxExchange => ({
  at: Date.UTC(2026, 10, 28, 7, 0, 0),
  method: 'GET',
  target,
  requestHeaders: {},
  requestBody: new Uint8Array(),
  status,
  responseBody: '{}',
  durationMs: 1,
  ...(status >= 400 ? { diagnosis: { mistake: 'bearer-missing', sentence: 'the request has no access token' } } : {}),
  ...more,
});

describe('the console lines', () => {
  it('refused only by default, every request with verbose, none when quiet', () => {
    const printed = { refused: [] as string[], all: [] as string[], none: [] as string[] };
    for (const mode of ['refused', 'all', 'none'] as const) {
      const lines = consoleLines({ mode, write: (t) => printed[mode].push(t) });
      lines.observe(exchange(200));
      lines.observe(exchange(401));
    }
    expect(printed.refused).toEqual(['2026-11-28T07:00:00.000Z GET /api/v1/apps 401 bearer-missing: the request has no access token\n']);
    expect(printed.all).toHaveLength(2);
    expect(printed.none).toEqual([]);
  });

  it('under a flood, counts per second instead of lines', () => {
    const printed: string[] = [];
    let now = Date.UTC(2026, 10, 28, 7, 0, 0, 100);
    const lines = consoleLines({ mode: 'refused', write: (t) => printed.push(t), linesPerSecond: 3, clock: () => now });
    for (let i = 0; i < 1000; i += 1) lines.observe(exchange(401));
    expect(printed).toHaveLength(3);
    now += 1000;
    lines.observe(exchange(401));
    expect(printed).toHaveLength(5);
    expect(printed[3]).toBe('2026-11-28T07:00:00.000Z … 997 more requests in that second, not shown one by one (997 refused: bearer-missing 997)\n');
    lines.flush();
  });

  it('a hostile target, listener and sentence make one escaped line; the query is never shown', () => {
    const printed: string[] = [];
    const lines = consoleLines({ mode: 'all', write: (t) => printed.push(t) });
    lines.observe(exchange(401, '/api/v1/\u001b[31mred\u202e?access_token=SECRET-TOKEN-VALUE', { listener: 'wh_\n\u0007x', diagnosis: { mistake: 'x\u001b]0;t\u0007', sentence: 'two\nlines' } }));
    const [line] = printed;
    expect(line?.endsWith('\n')).toBe(true);
    expect(line?.slice(0, -1)).not.toContain('\n');
    expect(hasUnsafeControls(line!.slice(0, -1))).toBe(false);
    expect(line).not.toContain('SECRET-TOKEN-VALUE');
    expect(line).toContain('?…');
  });
});
