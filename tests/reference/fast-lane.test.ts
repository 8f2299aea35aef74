/**
 * The fast lane (src/reference/fast-lane.ts) answers what node:http would, byte for byte: every request
 * below goes to a server with the lane and to one without, and the bytes that come back are compared (the
 * Date value masked). The requests are the lane's own (plain, pipelined, async, odd answers) and every kind
 * it must hand to node:http (cut between reads, chunked, Expect, duplicates, other methods, malformed,
 * over the limit, a FIN in the middle), so a lane that took one it should not, or wrote one answer
 * differently, fails here. The handler sees the same requests either way (compared too).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createReferenceServer, type Server } from '../../src/reference/node-adapter.js';
import type { ReferenceRequest, ReferenceResponse } from '../../src/reference/types.js';
import { talk } from '../support/socket-talk.js';

const LIMIT = 2000;

/** What the handler was given, per server, in order. */
const seen = new Map<string, string[]>();

/** Shared frozen headers, as the reference's 200 has: the lane checks them once (the second answer reuses that). */
const FROZEN = Object.freeze({ 'content-type': 'application/json; charset=utf-8', 'x-shared': 'yes' });
const FROZEN_INVALID = Object.freeze({ 'x-bad': 'a\u0001b' });

/** A handler whose answer is steered by the request's `x-answer` field, and that records what it saw. */
function handlerFor(name: string) {
  return (request: ReferenceRequest): Promise<ReferenceResponse> | ReferenceResponse => {
    const record = JSON.stringify({ ...request, body: request.body.toString('latin1') });
    seen.get(name)!.push(record);
    const answer = request.headers['x-answer'] ?? 'plain';
    const echo = `${request.method} ${request.url} ${request.body.length} ${Object.keys(request.headers).join(',')}`;
    switch (answer) {
      case 'async':
        return new Promise((resolve) => setTimeout(() => resolve({ status: 201, headers: { 'content-type': 'text/plain' }, body: `later ${echo}` }), 30));
      case 'throw':
        throw new Error('thrown by the handler');
      case 'reject':
        return Promise.reject(new Error('rejected by the handler'));
      case 'invalid-value':
        return { status: 200, headers: { 'x-bad': 'a\nb' }, body: 'never' };
      case 'invalid-name':
        return { status: 200, headers: { 'bad name': 'x' }, body: 'never' };
      case 'invalid-status':
        return { status: 42, headers: {}, body: 'never' };
      case 'close':
        return { status: 200, headers: { 'content-type': 'text/plain', connection: 'close' }, body: echo };
      case 'date':
        return { status: 200, headers: { date: 'Thu, 01 Jan 1970 00:00:00 GMT', 'retry-after': '1' }, body: echo };
      case 'buffer':
        return { status: 202, headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]) };
      case 'utf8':
        return { status: 409, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `é ✓ ${echo}` };
      case 'length-first':
        return { status: 200, headers: { 'content-length': '999', 'x-after': 'yes' }, body: echo };
      case 'no-content':
        return { status: 204, headers: {}, body: '' };
      case 'frozen':
        return { status: 200, headers: FROZEN, body: echo };
      case 'frozen-invalid':
        return { status: 200, headers: FROZEN_INVALID, body: 'never' };
      case 'teapot':
        return { status: 418, headers: { 'x-empty': '' }, body: '' };
      default:
        return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ echo }) };
    }
  };
}

const servers = new Map<string, { server: Server; port: number }>();
/** Requests node:http parsed on the lane's server ('request' or 'checkContinue'): the ones the lane handed over. */
let parsedByNode = 0;

beforeAll(async () => {
  for (const [name, fastLane] of [['lane', true], ['node', false]] as const) {
    seen.set(name, []);
    const server = createReferenceServer({
      handler: handlerFor(name),
      limitFor: () => LIMIT,
      logger: () => {},
      lingerMs: 200,
      fastLane,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    servers.set(name, { server, port: (server.address() as AddressInfo).port });
    if (fastLane) for (const event of ['request', 'checkContinue']) server.on(event, () => (parsedByNode += 1));
  }
});
afterAll(async () => {
  await Promise.all([...servers.values()].map(({ server }) => closeServer(server)));
});

/** How many whole responses `bytes` holds (by their Content-Length; a response without one ends the count). */
function responses(bytes: Buffer): number {
  const text = bytes.toString('latin1');
  let count = 0;
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) return count;
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(at, headEnd));
    const end = headEnd + 4 + (length ? Number(length[1]) : 0);
    if (end > text.length) return count;
    count += 1;
    at = end;
  }
}

interface Exchange {
  /** The first write; then `then`, 15 ms apart. */
  first: string | Buffer;
  then?: Array<string | Buffer>;
  /** Half-close after the last write. */
  end?: boolean;
  /** Stop once this many answers arrived (else: when the server closes, or after 1.5 s). */
  answers?: number;
  /**
   * node:http runs the handlers of requests pipelined after an answer that closes the connection (their
   * answers are never sent); the lane stops at that answer. The handler's calls are then a prefix.
   */
  laneStopsAtClose?: boolean;
  /** How the lane server must have taken it: every answer from the lane, or some from node:http. */
  taken?: 'lane' | 'node';
}

async function exchange(name: string, ex: Exchange): Promise<{ text: string; closedByServer: boolean; seen: string[] }> {
  const { port } = servers.get(name)!;
  const before = seen.get(name)!.length;
  const talked = await talk(port, ex.first, {
    ...(ex.then ? { then: ex.then, gapMs: 15 } : {}),
    end: ex.end === true,
    timeoutMs: 1500,
    ...(ex.answers !== undefined ? { done: (received: Buffer) => responses(received) >= ex.answers! } : {}),
  });
  // Let a handler still running finish recording.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const text = talked.received.toString('latin1').replace(/\r\nDate: [^\r\n]*/g, '\r\nDate: <masked>');
  return { text, closedByServer: talked.closedByServer, seen: seen.get(name)!.slice(before) };
}

const post = (path: string, body: string, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const body = JSON.stringify({ event: 'access.revoked', user: { id: 'u1' } });

const cases: Record<string, Exchange> = {
  'a plain POST': { first: post('/api/v1/webhooks/incoming/wh_1', body), answers: 1 , taken: 'lane' },
  'three pipelined in one write': { first: post('/a', body) + post('/b?x=1', '') + post('/c', body, 'X-Answer: utf8\r\n'), answers: 3 , taken: 'lane' },
  'a plain POST, then a FIN': { first: post('/a', body), end: true , taken: 'lane' },
  'head and body in two writes': { first: post('/a', body).slice(0, -body.length), then: [body], answers: 1 , taken: 'node' },
  'a head cut in the middle of a field': { first: post('/a', body).slice(0, 30), then: [post('/a', body).slice(30)], answers: 1 , taken: 'node' },
  'a plain POST, then one cut between reads': { first: post('/a', body) + post('/b', body).slice(0, 40), then: [post('/b', body).slice(40)], answers: 2 , taken: 'node' },
  'a cut request, then a FIN': { first: post('/a', body).slice(0, -3), end: true },
  'Expect: 100-continue': { first: post('/a', body, 'Expect: 100-continue\r\n'), answers: 1 , taken: 'node' },
  chunked: { first: 'POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n', answers: 1 , taken: 'node' },
  'two Host fields': { first: 'POST /a HTTP/1.1\r\nHost: h\r\nHost: i\r\nContent-Length: 0\r\n\r\n' },
  'a field twice': { first: post('/a', body, 'X-Twice: 1\r\nX-Twice: 2\r\n'), answers: 1 , taken: 'node' },
  'Content-Length twice, equal': { first: 'POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}', answers: 1 },
  'upper-case names and spaces around values': { first: post('/a', body, 'X-SPACED:    a b\r\nX-TAB:\tv\r\n'), answers: 1 , taken: 'lane' },
  'a value ending in a space': { first: post('/a', body, 'X-Trailing: v  \r\n'), answers: 1 , taken: 'node' },
  'an obs-text value': { first: Buffer.concat([Buffer.from(post('/a', '', 'X-Latin: caf')), Buffer.from([0xe9])]).toString('latin1').replace('caf\u00e9Content', 'caf\u00e9\r\nContent'), answers: 1 },
  'an obs-fold line': { first: post('/a', body, 'X-Fold: a\r\n  b\r\n') },
  'bare LF line ends': { first: 'POST /a HTTP/1.1\nHost: h\nContent-Length: 0\n\n' },
  'Connection: close': { first: post('/a', body, 'Connection: close\r\n') },
  'Connection: keep-alive': { first: post('/a', body, 'Connection: keep-alive\r\n'), answers: 1 , taken: 'lane' },
  'Connection: Keep-Alive, Upgrade': { first: post('/a', body, 'Connection: Keep-Alive, Upgrade\r\nUpgrade: h2c\r\n'), answers: 1 , taken: 'node' },
  'HTTP/1.0': { first: 'POST /a HTTP/1.0\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}' },
  'no Host': { first: 'POST /a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}' },
  'no Content-Length': { first: 'POST /a HTTP/1.1\r\nHost: h\r\n\r\n', answers: 1 , taken: 'node' },
  'Content-Length 0': { first: post('/a', ''), answers: 1 , taken: 'lane' },
  'Content-Length not a number': { first: 'POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n{}' },
  'Content-Length over the limit': { first: `POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`, then: ['x'.repeat(LIMIT + 1)] },
  'Content-Length at the limit': { first: post('/a', 'y'.repeat(LIMIT)), answers: 1 , taken: 'lane' },
  'GET, then POST': { first: 'GET /a?b=c HTTP/1.1\r\nHost: h\r\n\r\n' + post('/b', body), answers: 2 , taken: 'node' },
  'POST, then GET, then POST': { first: post('/a', body) + 'GET /x HTTP/1.1\r\nHost: h\r\n\r\n' + post('/b', body), answers: 3 , taken: 'node' },
  HEAD: { first: 'HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n', answers: 1 },
  'a lower-case method': { first: 'post /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n' },
  'an absolute-form target': { first: 'POST http://h/a?q HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n', answers: 1 , taken: 'node' },
  'a target with a fragment and odd characters': { first: 'POST /a"b|c#frag HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n' },
  'a garbage request line': { first: 'HELLO\r\n\r\n' },
  'a head over 16 KiB': { first: post('/a', '', `X-Big: ${'b'.repeat(17 * 1024)}\r\n`) },
  'a pipelined malformed request after a plain one': { first: post('/a', body) + 'GARBAGE\r\n\r\n' },
  'an async answer, pipelined with a sync one': { first: post('/a', body, 'X-Answer: async\r\n') + post('/b', body), answers: 2 , taken: 'lane' },
  'an async answer, then a FIN': { first: post('/a', body, 'X-Answer: async\r\n') + post('/b', body), end: true },
  'a handler that throws': { first: post('/a', body, 'X-Answer: throw\r\n') + post('/b', body), answers: 2 , taken: 'lane' },
  'a handler that rejects': { first: post('/a', body, 'X-Answer: reject\r\n'), answers: 1 },
  'an answer with an invalid field value': { first: post('/a', body, 'X-Answer: invalid-value\r\n'), answers: 1 , taken: 'lane' },
  'an answer with an invalid field name': { first: post('/a', body, 'X-Answer: invalid-name\r\n'), answers: 1 },
  'an answer with an invalid status': { first: post('/a', body, 'X-Answer: invalid-status\r\n'), answers: 1 },
  'an answer that closes': { first: post('/a', body, 'X-Answer: close\r\n') + post('/b', body), laneStopsAtClose: true },
  'an answer with its own Date': { first: post('/a', body, 'X-Answer: date\r\n'), answers: 1 },
  'a Buffer answer': { first: post('/a', body, 'X-Answer: buffer\r\n'), answers: 1 , taken: 'lane' },
  'a UTF-8 answer': { first: post('/a', body, 'X-Answer: utf8\r\n'), answers: 1 },
  'an answer naming its content-length first': { first: post('/a', body, 'X-Answer: length-first\r\n'), answers: 1 },
  'a 204 answer': { first: post('/a', body, 'X-Answer: no-content\r\n') + post('/b', body), answers: 2 , taken: 'lane' },
  'a 418 with an empty field': { first: post('/a', body, 'X-Answer: teapot\r\n'), answers: 1 },
  'a field line without a colon': { first: post('/a', body, 'X-No-Colon\r\n') },
  'whitespace before a colon': { first: post('/a', body, 'X-Before : v\r\n') },
  'an empty field name': { first: post('/a', body, ': v\r\n') },
  'a value of blanks only': { first: post('/a', body, 'X-Blank: \t \r\n'), answers: 1 },
  'a NUL in a value': { first: post('/a', body, 'X-Nul: a\u0000b\r\n') },
  'a bare CR in a value': { first: post('/a', body, 'X-Cr: a\rb\r\n') },
  'answers sharing frozen headers, twice': { first: post('/a', body, 'X-Answer: frozen\r\n') + post('/b', '', 'X-Answer: frozen\r\n'), answers: 2, taken: 'lane' },
  'answers sharing invalid frozen headers, twice': { first: post('/a', body, 'X-Answer: frozen-invalid\r\n') + post('/b', '', 'X-Answer: frozen-invalid\r\n'), answers: 2, taken: 'lane' },
  'a field named __proto__': { first: post('/a', body, '__proto__: x\r\n'), answers: 1 },
  'a field named constructor': { first: post('/a', body, 'Constructor: x\r\n'), answers: 1 },
  'an empty field value': { first: post('/a', body, 'X-Empty:\r\n'), answers: 1 , taken: 'lane' },
};

describe('the fast lane answers byte for byte what node:http answers', () => {
  for (const [title, ex] of Object.entries(cases)) {
    it(title, async () => {
      const before = parsedByNode;
      const lane = await exchange('lane', ex);
      if (ex.taken === 'lane') expect(parsedByNode - before, 'requests node:http parsed').toBe(0);
      if (ex.taken === 'node') expect(parsedByNode - before, 'requests node:http parsed').toBeGreaterThan(0);
      const node = await exchange('node', ex);
      expect(node.text.length, 'node:http answered something').toBeGreaterThan(0);
      expect(lane.text).toBe(node.text);
      expect(lane.closedByServer).toBe(node.closedByServer);
      expect(lane.seen).toEqual(ex.laneStopsAtClose ? node.seen.slice(0, 1) : node.seen);
      if (ex.laneStopsAtClose) expect(node.seen.length).toBeGreaterThan(1);
    });
  }
});

describe("the lane's connections are bounded as node:http bounds its own", () => {
  const bounds = { headersTimeout: 600, requestTimeout: 1200, keepAliveTimeout: 300, connectionsCheckingInterval: 50 };
  const started: Server[] = [];
  const serve = async (fastLane: boolean): Promise<number> => {
    const server = createReferenceServer({ handler: async () => ({ status: 200, headers: {}, body: 'ok' }), limitFor: () => 100, logger: () => {}, fastLane, bounds });
    started.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return (server.address() as AddressInfo).port;
  };
  afterAll(async () => {
    await Promise.all(started.map((server) => closeServer(server)));
  });

  it('closes a silent new connection with the same 408, and an idle kept-alive one after the same time', async () => {
    const ports = { lane: await serve(true), node: await serve(false) };
    const results = await Promise.all(
      (['lane', 'node'] as const).flatMap((name) => [
        talk(ports[name], '', { timeoutMs: 5000 }).then((talked) => ({ name, kind: 'silent', ...talked })),
        talk(ports[name], 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n', { timeoutMs: 5000 }).then((talked) => ({ name, kind: 'idle', ...talked })),
      ]),
    );
    const of = (name: string, kind: string) => results.find((result) => result.name === name && result.kind === kind)!;
    for (const kind of ['silent', 'idle']) {
      const [lane, node] = [of('lane', kind), of('node', kind)];
      expect(lane.closedByServer && node.closedByServer, kind).toBe(true);
      expect(lane.received.toString('latin1').replace(/Date: [^\r\n]*/, '')).toBe(node.received.toString('latin1').replace(/Date: [^\r\n]*/, ''));
      // Within two sweeps of node:http's own moment.
      expect(Math.abs(lane.elapsedMs - node.elapsedMs), `${kind}: lane ${lane.elapsedMs} ms, node ${node.elapsedMs} ms`).toBeLessThan(250);
    }
    expect(of('lane', 'silent').received.toString('latin1')).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('server.close() ends: idle lane connections are closed, a busy one finishes its answer first', async () => {
    const server = createReferenceServer({
      handler: () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, headers: {}, body: 'late' }), 200)),
      limitFor: () => 100,
      logger: () => {},
      bounds,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as AddressInfo).port;
    const idle = talk(port, 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n', { timeoutMs: 3000, done: (bytes) => bytes.includes('late') });
    await idle;
    const busy = talk(port, 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n', { timeoutMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = Date.now();
    await closeServer(server);
    const answered = await busy;
    expect(answered.received.toString('latin1')).toContain('late');
    expect(Date.now() - closing).toBeLessThan(1500);
  });
});

describe('a client that sends and never reads', () => {
  it('is no longer read once its answers fill the socket, and gets every answer once it reads', async () => {
    const { connect } = await import('node:net');
    const request = 'POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n';
    const total = 8_000;
    let calls = 0;
    const server = createReferenceServer({
      handler: () => {
        calls += 1;
        return { status: 200, headers: { 'content-type': 'text/plain', 'x-pad': 'p'.repeat(4000) }, body: 'ok' };
      },
      limitFor: () => 100,
      logger: () => {},
    });
    let nodeParsed = 0;
    server.on('request', () => (nodeParsed += 1));
    // Registered after the lane's own listener: the server's side of the connection.
    const accepted = new Promise<import('node:net').Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.pause();
    socket.write(request.repeat(total));
    const serverSide = await accepted;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // ~32 MB of answers cannot all fit in the sockets: the lane waits for them to drain before reading on.
    expect(calls).toBeLessThan(total);
    expect(serverSide.isPaused(), 'the server stopped reading').toBe(true);
    expect(nodeParsed, 'the lane kept the connection').toBe(0);
    let received = 0;
    let answerSize = Number.POSITIVE_INFINITY;
    socket.once('data', (chunk: Buffer) => {
      answerSize = chunk.toString('latin1').indexOf('HTTP/1.1', 1);
    });
    const done = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${Math.floor(received / answerSize)} of ${total} answers`)), 20_000);
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= answerSize * total) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    socket.resume();
    await done;
    expect(calls).toBe(total);
    expect(serverSide.isPaused(), 'the server reads again').toBe(false);
    socket.destroy();
    await closeServer(server);
  }, 30_000);
});
