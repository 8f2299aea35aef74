/**
 * No answer lost before a parse error (issue 25): valid requests pipelined with a malformed one in ONE TCP
 * write are each answered, in order, and only then does the error answer come (or the connection closes).
 * A webhook's answer must match what the runs hook recorded: before the fix, a valid signed webhook followed
 * by `GARBAGE` ran its automation and claimed its event ID while the only answer on the wire was one 400,
 * which the sender took for the webhook's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, health, recordedRuns, request, signedWebhook, startServe, tokenForm, type Serve } from './serve-support.js';
import { SHAPES, type Shape } from './serve-shapes.js';

let serve: Serve;
let ownersPath: string;
let auth: Record<string, string>;

beforeAll(async () => {
  serve = await startServe('hostile-pipelining');
  const token = await fetch(`${serve.profile.baseUrl}/auth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(serve),
    signal: AbortSignal.timeout(5000),
  });
  auth = { Authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  ownersPath = `/api/v1/apps/${serve.profile.apps.owners.appId}/ownerids`;
}, 60_000);
afterAll(async () => serve?.close());

function errorMatches(status: number, expected: Shape['expect']): boolean {
  return expected === '4xx' ? status >= 400 && status < 500 : status === expected;
}

describe('pipelined valid requests, then a malformed one, in one write', () => {
  it.each(SHAPES)('$name: every valid request gets its own answer, the webhook the one the runs hook shows', async (shape) => {
    const webhook = await signedWebhook(serve);
    // A valid request after the malformed one: never parsed, so never answered (a client retries it).
    const after = request('GET', ownersPath, auth);
    const wire = `${request('GET', ownersPath, auth)}${webhook.bytes}${request('GET', ownersPath, auth)}${shape.bytes}${after}`;
    const result = await exchange(serve.port, wire, { timeoutMs: 8000 });
    const statuses = result.answers.map((answer) => answer.status);
    expect(statuses.slice(0, 3), JSON.stringify(result)).toEqual([200, 200, 200]);
    expect(result.answers[0]?.body).toContain('userIds');
    expect(result.answers[2]?.body).toContain('userIds');
    expect(statuses.length, JSON.stringify(statuses)).toBe(4);
    expect(errorMatches(statuses[3] ?? 0, shape.expect), `${shape.name}: ${statuses[3]}`).toBe(true);
    expect(result.closedByServer).toBe(true);
    expect((await recordedRuns(serve)).has(webhook.eventId)).toBe(true);
  });

  it('49 pipelined GETs, garbage, 50 more: 49 answers, then the 400, then close', async () => {
    const get = request('GET', ownersPath, auth);
    const result = await exchange(serve.port, `${get.repeat(49)}GARBAGE\r\n\r\n${get.repeat(50)}`, { timeoutMs: 8000 });
    expect(result.answers.map((answer) => answer.status)).toEqual([...Array<number>(49).fill(200), 400]);
    expect(result.closedByServer).toBe(true);
  });

  it('interleaved webhooks and a duplicate: each answer at its own position, then the 400', async () => {
    // Webhooks interleaved with a duplicate: the duplicate's 409 must sit at the duplicate's position.
    const first = await signedWebhook(serve);
    const second = await signedWebhook(serve);
    const wire = `${first.bytes}${second.bytes}${first.bytes}GARBAGE\r\n\r\n`;
    const result = await exchange(serve.port, wire, { timeoutMs: 8000 });
    expect(result.answers.map((answer) => answer.status)).toEqual([200, 200, 409, 400]);
    const runs = await recordedRuns(serve);
    expect(runs.has(first.eventId) && runs.has(second.eventId)).toBe(true);
  });

  it('a client that half-closes after its requests still gets every answer', async () => {
    const webhook = await signedWebhook(serve);
    const result = await exchange(serve.port, `${request('GET', ownersPath, auth)}${webhook.bytes}`, { end: true, timeoutMs: 8000 });
    expect(result.answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await recordedRuns(serve)).has(webhook.eventId)).toBe(true);
  });

  it('serve is still healthy afterwards', async () => {
    expect(await health(serve)).toEqual([]);
  });
});
