/**
 * The load driver's lean HTTP/1.1 client (src/load/load-transport.ts) and its response parser: every
 * framing a target may answer with (Content-Length, chunked with trailers, until close, 1xx, 204), split at
 * every byte; requests exactly as a server sees them; keep-alive reuse within the connection limit; TLS with
 * the profile's CA; and each failure as its stable code (timeout, reset, refused, TLS, malformed).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoadTransport, type LoadRequest, type LoadTransport } from '../../src/load/load-transport.js';
import { ParseError, ResponseParser, type ParsedResponse } from '../../src/load/load-response-parser.js';
import { createLocalCa, issueServerCertificate } from '../../src/crypto/certificates.js';

function feedAll(parser: ResponseParser, text: string, step = 0): ParsedResponse | undefined {
  const bytes = Buffer.from(text, 'latin1');
  if (step === 0) return parser.feed(bytes);
  let result: ParsedResponse | undefined;
  for (let i = 0; i < bytes.length; i += step) {
    const got = parser.feed(bytes.subarray(i, i + step));
    if (got) result = got;
  }
  return result;
}

describe('ResponseParser', () => {
  const cases: Array<[string, string, ParsedResponse]> = [
    ['Content-Length', 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', { status: 200, bodyBytes: 2, keepAlive: true }],
    ['no body', 'HTTP/1.1 409 Conflict\r\ncontent-length: 0\r\n\r\n', { status: 409, bodyBytes: 0, keepAlive: true }],
    ['204', 'HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n', { status: 204, bodyBytes: 0, keepAlive: true }],
    ['Connection: close', 'HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 5\r\n\r\nnope!', { status: 401, bodyBytes: 5, keepAlive: false }],
    [
      'chunked with extensions and trailers',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: 1\r\n\r\n',
      { status: 200, bodyBytes: 23, keepAlive: true },
    ],
    ['chunked, no trailers', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\na\r\n0123456789\r\n0\r\n\r\n', { status: 200, bodyBytes: 10, keepAlive: true }],
    ['100 Continue first', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc', { status: 200, bodyBytes: 3, keepAlive: true }],
    ['HTTP/1.0 keep-alive', 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx', { status: 200, bodyBytes: 1, keepAlive: true }],
  ];
  for (const [name, text, expected] of cases) {
    it(`${name}: whole, and split at every byte`, () => {
      expect(feedAll(new ResponseParser(), text)).toEqual(expected);
      expect(feedAll(new ResponseParser(), text, 1)).toEqual(expected);
      expect(feedAll(new ResponseParser(), text, 7)).toEqual(expected);
    });
  }

  it('keep-alive: parses one response after another on the same connection', () => {
    const parser = new ResponseParser();
    expect(feedAll(parser, 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}')?.status).toBe(200);
    expect(parser.idle).toBe(true);
    expect(feedAll(parser, 'HTTP/1.1 409 Conflict\r\nContent-Length: 0\r\n\r\n')?.status).toBe(409);
  });

  it('a body without length runs until the connection closes', () => {
    const parser = new ResponseParser();
    expect(feedAll(parser, 'HTTP/1.0 200 OK\r\n\r\nsome')).toBeUndefined();
    expect(parser.awaitingClose).toBe(true);
    expect(feedAll(parser, ' more')).toBeUndefined();
    expect(parser.end()).toEqual({ status: 200, bodyBytes: 9, keepAlive: false });
  });

  const malformed: Array<[string, string, string]> = [
    ['not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', 'HPE_INVALID_CONSTANT'],
    ['bad Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['conflicting Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['no CRLF after a chunk', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy', 'HPE_STRICT'],
    ['data after the response', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxEXTRA', 'HPE_UNEXPECTED_CONTENT'],
  ];
  for (const [name, text, code] of malformed) {
    it(`refuses ${name} with ${code}`, () => {
      let caught: unknown;
      try {
        feedAll(new ResponseParser(), text);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ParseError);
      expect((caught as ParseError).code).toBe(code);
    });
  }

  it('refuses an endless head and a response cut short', () => {
    const parser = new ResponseParser();
    expect(() => parser.feed(Buffer.alloc(70 * 1024, 0x61))).toThrow(/head too large/);
    const cut = new ResponseParser();
    cut.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(() => cut.end()).toThrow(/closed in the middle/);
  });
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(t: LoadTransport, req: LoadRequest): Promise<{ status: number; error?: string; bytes: number }> {
  return new Promise((resolve) => t.send(req, (status, error, bytes) => resolve({ status, error, bytes })));
}

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('createLoadTransport against real servers', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let connections = 0;

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      let body = '';
      req.setEncoding('latin1');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('abc');
          setTimeout(() => res.end('defgh'), 5);
        } else if (req.url === '/close') {
          res.writeHead(202, { connection: 'close', 'content-length': 2 }).end('ok');
        } else if (req.url === '/hang') {
          // never answers
        } else if (req.url === '/reset') {
          req.socket.destroy();
        } else {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}');
        }
      });
    });
    server.on('connection', () => (connections += 1));
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the request exactly: method, path, host, content-length, headers, body', async () => {
    const t = createLoadTransport({ origin: base, connections: 2, timeoutMs: 5000 });
    const body = Buffer.from('{"event":"x"}');
    const res = await send(t, { method: 'POST', path: '/api/v1/webhooks/incoming/wh%2F1?x=1', headers: { 'content-type': 'application/json', 'webhook-event-id': 'e-1' }, body });
    expect(res).toEqual({ status: 200, error: undefined, bytes: 2 });
    const last = seen.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.url).toBe('/api/v1/webhooks/incoming/wh%2F1?x=1');
    expect(last.headers.host).toBe(new URL(base).host);
    expect(last.headers['content-length']).toBe(String(body.length));
    expect(last.headers['webhook-event-id']).toBe('e-1');
    expect(last.body).toBe('{"event":"x"}');
    expect((await send(t, { method: 'GET', path: '/get', headers: { accept: 'application/json' } })).status).toBe(200);
    expect(seen.at(-1)!.headers['content-length']).toBeUndefined();
    await t.close();
  });

  it('keeps at most `connections` keep-alive connections and reuses them', async () => {
    const before = connections;
    const t = createLoadTransport({ origin: base, connections: 4, timeoutMs: 5000 });
    const results = await Promise.all(Array.from({ length: 300 }, () => send(t, { method: 'POST', path: '/ok', headers: {}, body: Buffer.from('x') })));
    expect(results.every((r) => r.status === 200 && r.error === undefined)).toBe(true);
    expect(connections - before).toBeLessThanOrEqual(4);
    await t.close();
  });

  it('reads chunked bodies and bodies on connections the server closes', async () => {
    const t = createLoadTransport({ origin: base, connections: 2, timeoutMs: 5000 });
    expect(await send(t, { method: 'GET', path: '/chunked', headers: {} })).toEqual({ status: 200, error: undefined, bytes: 8 });
    const closes = await Promise.all(Array.from({ length: 5 }, () => send(t, { method: 'GET', path: '/close', headers: {} })));
    expect(closes.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    await t.close();
  });

  it('maps failures to stable codes: TIMEOUT, CONNECTION_RESET, TARGET_UNREACHABLE, USAGE', async () => {
    const t = createLoadTransport({ origin: base, connections: 2, timeoutMs: 300 });
    const started = performance.now();
    expect(await send(t, { method: 'GET', path: '/hang', headers: {} })).toMatchObject({ status: 0, error: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await send(t, { method: 'GET', path: '/reset', headers: {} })).toMatchObject({ status: 0, error: 'CONNECTION_RESET' });
    expect(await send(t, { method: 'GET', path: '/ok', headers: { 'x-bad': 'a\r\nx-injected: 1' } })).toMatchObject({ status: 0, error: 'USAGE' });
    // The transport keeps working after failures.
    expect((await send(t, { method: 'GET', path: '/ok', headers: {} })).status).toBe(200);
    await t.destroy();

    const probe = createNetServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const refused = createLoadTransport({ origin: `http://127.0.0.1:${port}`, connections: 2, timeoutMs: 1000 });
    expect(await send(refused, { method: 'GET', path: '/', headers: {} })).toMatchObject({ status: 0, error: 'TARGET_UNREACHABLE' });
    await refused.destroy();
  });

  it('a malformed answer is HTTP_PROTOCOL', async () => {
    const junk = createNetServer((socket: Socket) => socket.once('data', () => socket.end('HELLO WORLD\r\n\r\n')));
    const port = await listen(junk);
    const t = createLoadTransport({ origin: `http://127.0.0.1:${port}`, connections: 1, timeoutMs: 1000 });
    expect(await send(t, { method: 'GET', path: '/', headers: {} })).toMatchObject({ status: 0, error: 'HTTP_PROTOCOL' });
    await t.destroy();
    await new Promise<void>((resolve) => junk.close(() => resolve()));
  });

  it('close() waits for requests in flight; destroy() cancels them', async () => {
    const t = createLoadTransport({ origin: base, connections: 2, timeoutMs: 5000 });
    const pending = send(t, { method: 'GET', path: '/chunked', headers: {} });
    await t.close();
    expect((await pending).status).toBe(200);
    const d = createLoadTransport({ origin: base, connections: 1, timeoutMs: 5000 });
    const hanging = [send(d, { method: 'GET', path: '/hang', headers: {} }), send(d, { method: 'GET', path: '/hang', headers: {} })];
    await new Promise((resolve) => setTimeout(resolve, 50));
    await d.destroy();
    expect((await Promise.all(hanging)).map((r) => r.error)).toEqual(['CANCELLED', 'CANCELLED']);
  });
});

describe('createLoadTransport over TLS', () => {
  it('trusts the profile CA, refuses an unknown one (TLS), or skips verification when told', async () => {
    const ca = await createLocalCa();
    const leaf = await issueServerCertificate(ca, { ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] });
    const server = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => res.writeHead(200, { 'content-length': 0 }).end());
    server.on('tlsClientError', () => {});
    const port = await listen(server as unknown as Server);
    const origin = `https://127.0.0.1:${port}`;
    try {
      const trusted = createLoadTransport({ origin, connections: 1, timeoutMs: 2000, ca: ca.certPem });
      expect(await send(trusted, { method: 'GET', path: '/', headers: {} })).toMatchObject({ status: 200 });
      await trusted.close();
      const untrusted = createLoadTransport({ origin, connections: 1, timeoutMs: 2000 });
      expect(await send(untrusted, { method: 'GET', path: '/', headers: {} })).toMatchObject({ status: 0, error: 'TLS' });
      await untrusted.destroy();
      const skip = createLoadTransport({ origin, connections: 1, timeoutMs: 2000, insecureSkipVerify: true });
      expect(await send(skip, { method: 'GET', path: '/', headers: {} })).toMatchObject({ status: 200 });
      await skip.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
