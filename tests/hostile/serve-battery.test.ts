/**
 * A battery of hostile clients against `serve` (raw node:net sockets on 127.0.0.1, bounded in count and
 * time): malformed and smuggling framings, slow clients, oversized inputs, floods, resets at several points,
 * half-closed sockets, pipelining. After each case serve is alive, answered no 5xx (other than the 501 RFC
 * 9112 §6.1 asks for an unknown transfer coding), and a token, an owner-IDs call and a signed webhook
 * succeed promptly. The cases run concurrently (which makes each harsher); the slow ones are in
 * serve-timeouts.test.ts, the pipelined malformed shapes in serve-pipelining.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, health, recordedRuns, request, signedWebhook, sleep, startServe, tokenForm, type Answer, type Serve } from './serve-support.js';
import { SHAPES } from './serve-shapes.js';

let serve: Serve;
let auth: Record<string, string>;
let ownersPath: string;
let webhookPath: string;

beforeAll(async () => {
  serve = await startServe('hostile-battery');
  const token = await exchange(serve.port, request('POST', '/auth/v1/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, tokenForm(serve)), {
    answers: 1,
  });
  auth = { Authorization: `Bearer ${(JSON.parse(token.answers[0]?.body ?? '{}') as { access_token: string }).access_token}` };
  ownersPath = `/api/v1/apps/${serve.profile.apps.owners.appId}/ownerids`;
  webhookPath = `/api/v1/webhooks/incoming/${serve.profile.webhooks.hmac.listenerId}`;
}, 60_000);
afterAll(async () => serve?.close());

/** Answers that break the rule: any 5xx but the 501 for an unknown transfer coding. */
const serverErrors = (answers: Answer[]): string[] =>
  answers.filter((answer) => answer.status >= 500 && answer.status !== 501).map((answer) => `${answer.status} ${answer.body.slice(0, 120)}`);

/** Runs `count` tasks, `width` at a time. */
async function pool(count: number, width: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Connects, writes `bytes`, waits `afterMs`, then sends a TCP reset. */
function resetAfter(bytes: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect(serve.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      if (bytes !== '') socket.write(bytes);
      setTimeout(() => socket.resetAndDestroy(), afterMs);
    });
  });
}

/** One hostile case: returns what went wrong (empty when all is well). */
type Case = [name: string, run: () => Promise<string[]>];

const CASES: Case[] = [
  [
    'every malformed shape alone on its connection',
    async () => {
      const problems: string[] = [];
      await pool(SHAPES.length, 8, async (index) => {
        const shape = SHAPES[index]!;
        const result = await exchange(serve.port, shape.bytes, { timeoutMs: 5000 });
        const status = result.answers[0]?.status;
        const ok = shape.expect === '4xx' ? status !== undefined && status >= 400 && status < 500 : status === shape.expect;
        if (!ok) problems.push(`${shape.name}: ${status ?? 'no answer'}`);
        problems.push(...serverErrors(result.answers));
      });
      return problems;
    },
  ],
  [
    '200 slowloris connections trickling headers while serve is used',
    async () => {
      const sockets = Array.from({ length: 200 }, () => {
        const socket = connect(serve.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
        return socket;
      });
      const drip = setInterval(() => sockets.forEach((socket) => socket.writable && socket.write('X-Slow: a\r\n')), 500);
      try {
        await sleep(1500);
        return await health(serve);
      } finally {
        clearInterval(drip);
        sockets.forEach((socket) => socket.destroy());
      }
    },
  ],
  [
    'oversized headers, URL and header count: 431',
    async () => {
      const bigHeader = request('GET', ownersPath, { 'X-Big': 'a'.repeat(100_000) });
      const manyHeaders = request('GET', ownersPath, Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`X-H${i}`, 'a'.repeat(40)])));
      const bigUrl = request('GET', `/${'a'.repeat(100_000)}`);
      const problems: string[] = [];
      for (const [name, bytes] of [['100 KB header', bigHeader], ['2,000 headers', manyHeaders], ['100 KB URL', bigUrl]] as const) {
        const result = await exchange(serve.port, bytes, { timeoutMs: 5000 });
        if (result.answers[0]?.status !== 431) problems.push(`${name}: ${result.answers[0]?.status ?? `no answer (${result.error ?? 'closed'})`}`);
      }
      return problems;
    },
  ],
  [
    'oversized bodies: 1 GB announced, 8 MB streamed, chunked past the limit',
    async () => {
      const problems: string[] = [];
      const announced = await exchange(serve.port, request('POST', webhookPath, { 'Content-Length': String(2 ** 30) }), { answers: 1, timeoutMs: 5000 });
      if (announced.answers[0]?.status !== 413) problems.push(`1 GB announced: ${announced.answers[0]?.status ?? 'no answer'}`);
      // Streamed past the limit and beyond the 1 MiB drain: whatever arrives before the close is no 5xx.
      const streamed = await exchange(serve.port, request('POST', webhookPath, { 'Content-Length': String(8 * 2 ** 20) }), {
        then: Array.from({ length: 8 }, () => Buffer.alloc(2 ** 20, 'a')),
        timeoutMs: 5000,
      });
      problems.push(...serverErrors(streamed.answers));
      const chunk = `${(64 * 1024).toString(16)}\r\n${'a'.repeat(64 * 1024)}\r\n`;
      const chunked = await exchange(serve.port, request('POST', webhookPath, { 'Transfer-Encoding': 'chunked' }), { then: [chunk, chunk, chunk], timeoutMs: 5000 });
      if (chunked.answers[0]?.status !== 413) problems.push(`chunked past the limit: ${chunked.answers[0]?.status ?? 'no answer'}`);
      const token = await exchange(serve.port, request('POST', '/auth/v1/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'a'.repeat(1_000_000)), {
        timeoutMs: 5000,
      });
      // The token endpoint answers an oversized form as RFC 6749 §5.2 invalid_request (400), not 413.
      if (token.answers[0]?.status !== 400) problems.push(`1 MB token request: ${token.answers[0]?.status ?? 'no answer'}`);
      return problems;
    },
  ],
  [
    'deep JSON in signed webhooks (32,768 arrays, 16,000 objects): answer matches the runs hook',
    async () => {
      const problems: string[] = [];
      for (const body of ['['.repeat(32_768) + ']'.repeat(32_768), '{"a":'.repeat(16_000) + '1' + '}'.repeat(16_000)]) {
        const webhook = await signedWebhook(serve, body);
        const result = await exchange(serve.port, webhook.bytes, { answers: 1, timeoutMs: 5000 });
        const status = result.answers[0]?.status;
        const ran = (await recordedRuns(serve)).has(webhook.eventId);
        if (status === undefined || status >= 500 || (status === 200) !== ran) problems.push(`deep JSON (${body.length} B): ${status}, ran ${ran}`);
      }
      return problems;
    },
  ],
  [
    'floods: 300 connections at once, 2,000 bad signatures, 500 tokens, 1,000 valid webhooks',
    async () => {
      const problems: string[] = [];
      const get = request('GET', ownersPath, auth);
      const connections = await Promise.all(Array.from({ length: 300 }, () => exchange(serve.port, get, { answers: 1, timeoutMs: 10_000 })));
      const unanswered = connections.filter((c) => c.answers[0]?.status !== 200).length;
      if (unanswered > 0) problems.push(`${unanswered} of 300 concurrent connections not answered 200`);
      // Well-formed and fresh, but signed with the wrong secret.
      const badWebhook = (await signedWebhook(serve)).bytes.replace(/Webhook-Signature: [^\r]+/, `Webhook-Signature: ${'A'.repeat(43)}`);
      const tokenRequest = request('POST', '/auth/v1/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, tokenForm(serve));
      const batches: Array<[string, string, number, number]> = [
        ['bad signature', badWebhook, 20, 100],
        ['token', tokenRequest, 10, 50],
      ];
      for (const [name, bytes, conns, each] of batches) {
        await pool(conns, 4, async () => {
          const result = await exchange(serve.port, bytes.repeat(each), { answers: each, timeoutMs: 15_000 });
          const expected = name === 'token' ? 200 : 401;
          const wrong = result.answers.filter((answer) => answer.status !== expected).length + (each - result.answers.length);
          if (wrong > 0) problems.push(`${name}: ${wrong} of ${each} pipelined answers not ${expected}`);
        });
      }
      const ids: string[] = [];
      await pool(10, 4, async () => {
        const hooks = await Promise.all(Array.from({ length: 100 }, () => signedWebhook(serve)));
        ids.push(...hooks.map((hook) => hook.eventId));
        const result = await exchange(serve.port, hooks.map((hook) => hook.bytes).join(''), { answers: 100, timeoutMs: 15_000 });
        const ok = result.answers.filter((answer) => answer.status === 200).length;
        if (ok !== 100) problems.push(`valid webhooks: ${ok} of 100 answered 200`);
      });
      // The runs hook keeps the last 1,000 runs per listener; concurrent cases add a few more.
      const runs = await recordedRuns(serve);
      const missing = ids.slice(-800).filter((id) => !runs.has(id)).length;
      if (missing > 0) problems.push(`${missing} of the last 800 answered webhooks not in the runs hook`);
      return problems;
    },
  ],
  [
    'resets at seven points',
    async () => {
      const webhook = await signedWebhook(serve);
      const [head, body] = webhook.bytes.split('\r\n\r\n') as [string, string];
      const pipelined = request('GET', ownersPath, auth).repeat(200);
      await Promise.all([
        resetAfter('', 0),
        resetAfter('POST /api/v1/web', 20),
        resetAfter(`${head.split('\r\n').slice(0, 3).join('\r\n')}\r\n`, 20),
        resetAfter(`${head}\r\n\r\n`, 20),
        resetAfter(`${head}\r\n\r\n${body.slice(0, 5)}`, 20),
        resetAfter(webhook.bytes, 0),
        resetAfter(pipelined, 5),
      ]);
      // A reset after the whole webhook may or may not let it run; either way serve goes on.
      return [];
    },
  ],
  [
    'half-closed sockets: after a whole request, mid-request, at once',
    async () => {
      const problems: string[] = [];
      const whole = await exchange(serve.port, request('GET', ownersPath, auth), { end: true, timeoutMs: 5000 });
      if (whole.answers[0]?.status !== 200 || !whole.closedByServer) problems.push(`whole request then FIN: ${whole.answers[0]?.status}`);
      const partial = await exchange(serve.port, 'GET /api/v1/apps/x/ownerids HTTP/1.1\r\nHost: 127.0.0.1\r\n', { end: true, timeoutMs: 5000 });
      problems.push(...serverErrors(partial.answers));
      if (!partial.closedByServer) problems.push('partial request then FIN: connection left open');
      const empty = await exchange(serve.port, '', { end: true, timeoutMs: 5000 });
      if (empty.answers.length > 0 || !empty.closedByServer) problems.push(`FIN at once: ${JSON.stringify(empty.answers)}`);
      return problems;
    },
  ],
  [
    'pipelining: 300 mixed requests in one write, answered in order',
    async () => {
      const token = request('POST', '/auth/v1/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, tokenForm(serve));
      const owners = request('GET', ownersPath, auth);
      const missing = request('GET', '/api/v1/nothing-here', auth);
      const order = Array.from({ length: 300 }, (_, i) => [token, owners, missing][i % 3] as string);
      const result = await exchange(serve.port, order.join(''), { answers: 300, timeoutMs: 15_000 });
      const expected = order.map((bytes) => (bytes === missing ? 404 : 200));
      const statuses = result.answers.map((answer) => answer.status);
      const kinds = result.answers.map((answer) => (answer.body.includes('access_token') ? 'token' : answer.body.includes('userIds') ? 'owners' : 'other'));
      const expectedKinds = order.map((bytes) => (bytes === token ? 'token' : bytes === owners ? 'owners' : 'other'));
      const problems: string[] = [];
      if (JSON.stringify(statuses) !== JSON.stringify(expected)) problems.push(`statuses out of order: ${statuses.slice(0, 12).join(',')}…`);
      if (JSON.stringify(kinds) !== JSON.stringify(expectedKinds)) problems.push('answers out of order');
      return problems;
    },
  ],
];

describe('serve under hostile clients', () => {
  it.concurrent.each(CASES)(
    '%s: no 5xx, serve alive and prompt afterwards',
    async (_name, run) => {
      const problems = await run();
      expect(problems).toEqual([]);
      expect(await health(serve)).toEqual([]);
    },
    45_000,
  );

  it('logged no unexpected error', () => {
    expect(serve.output()).not.toMatch(/handler threw|adapter error|unexpected error|invalid response from handler/);
  });
});
