/** node:http adapter: bounded body reads, malformed HTTP, handler failures, polite close. */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createReferenceServer } from '../../src/reference/node-adapter.js';
import type { ReferenceRequest, ReferenceResponse } from '../../src/reference/types.js';
import { rawRequest } from './support/raw.js';

const LIMIT = 1000;
const seen: ReferenceRequest[] = [];
let behaviour: (request: ReferenceRequest) => Promise<ReferenceResponse>;
const server = createReferenceServer({
  handler: (request) => behaviour(request),
  limitFor: (_method, url) => (url.startsWith('/small') ? LIMIT : 10),
  logger: () => {},
  lingerMs: 500,
});
let port = 0;

const echo = async (request: ReferenceRequest): Promise<ReferenceResponse> => {
  seen.push(request);
  const status = request.bodyExceeded ? 413 : 200;
  return { status, headers: { 'content-type': 'text/plain' }, body: `${request.method} ${request.url} ${request.body.length}` };
};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => closeServer(server));

describe('body limits', () => {
  it('hands the body to the handler when within the limit', async () => {
    behaviour = echo;
    const body = 'x'.repeat(LIMIT);
    const result = await rawRequest(port, `POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: ${LIMIT}\r\nConnection: close\r\n\r\n${body}`);
    expect(result.status).toBe(200);
    expect(result.text).toContain(`POST /small ${LIMIT}`);
  });
  it('does not read a body announced larger than the limit and sends no 100 Continue', async () => {
    behaviour = echo;
    seen.length = 0;
    const result = await rawRequest(
      port,
      `POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000\r\nExpect: 100-continue\r\n\r\n`,
      { untilStatus: true },
    );
    expect(result.status).toBe(413);
    expect(result.text).not.toContain('100 Continue');
    expect(seen[0]?.bodyExceeded).toBe(true);
    expect(seen[0]?.body.length).toBe(0);
  });
  it('stops reading a chunked body one byte past the limit, and the client still reads the answer', async () => {
    behaviour = echo;
    seen.length = 0;
    const chunk = (n: number): string => `${n.toString(16)}\r\n${'y'.repeat(n)}\r\n`;
    const result = await rawRequest(port, `POST /small HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n`, {
      chunks: Array.from({ length: 40 }, () => chunk(500)),
      gapMs: 2,
      timeoutMs: 4000,
    });
    expect(result.status).toBe(413);
    expect(seen[0]?.body.length).toBe(LIMIT);
    expect(result.text).toContain('connection: close');
  });
});

describe('polite close after an early answer', () => {
  it('lets a client that keeps sending read the 413, then closes the connection itself', async () => {
    behaviour = echo;
    const result = await rawRequest(port, 'POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 100000000\r\n\r\n', {
      chunks: Array.from({ length: 200 }, () => 'z'.repeat(1024)),
      gapMs: 20,
      timeoutMs: 8000,
    });
    expect(result.status).toBe(413);
    // The server ended the connection (after its linger period), not the client's timeout.
    expect(result.closedByServer).toBe(true);
  });
});

describe('malformed HTTP and failures never give 5xx from the protocol layer or crash', () => {
  it('answers 400 to a garbage request line and 431 to oversized headers', async () => {
    behaviour = echo;
    expect((await rawRequest(port, 'HELLO\r\n\r\n')).status).toBe(400);
    expect((await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n')).status).toBe(400);
    expect((await rawRequest(port, `GET /x HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`)).status).toBe(431);
    expect((await rawRequest(port, 'POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n')).status).toBe(400);
  });
  it('survives a truncated body and keeps serving', async () => {
    behaviour = echo;
    const truncated = await rawRequest(port, 'POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 500\r\n\r\nshort', { endAfter: true, timeoutMs: 1000 });
    expect(truncated.status === undefined || truncated.status < 500).toBe(true);
    const next = await rawRequest(port, 'GET /ok HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(next.status).toBe(200);
  });
  it('turns a throwing handler or an invalid response into 503, never 500', async () => {
    behaviour = async () => {
      throw new Error('boom');
    };
    expect((await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(503);
    behaviour = async () => ({ status: 99, headers: {}, body: '' });
    expect((await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(503);
    behaviour = async () => ({ status: 200, headers: { 'x-bad': 'a\r\nb' }, body: '' });
    expect((await rawRequest(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(503);
  });
  it('accepts absolute-form targets and omits the body for HEAD', async () => {
    behaviour = echo;
    const absolute = await rawRequest(port, 'GET http://a/small?q=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(absolute.text).toContain('GET http://a/small?q=1 0');
    const head = await rawRequest(port, 'HEAD /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(head.status).toBe(200);
    expect(head.text.endsWith('\r\n\r\n')).toBe(true);
  });
});

describe('answers owed on a connection are never lost (issue 25)', () => {
  const slow = async (request: ReferenceRequest): Promise<ReferenceResponse> => {
    // Slower than the parser: the error or the FIN arrives while both answers are still owed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return echo(request);
  };
  const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));

  it('answers slow pipelined requests in order before the 400 for a malformed one', async () => {
    behaviour = slow;
    const result = await rawRequest(port, 'GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}GARBAGE\r\n\r\n');
    expect(statuses(result.text)).toEqual([200, 200, 400]);
    expect(result.text.indexOf('GET /a 0')).toBeLessThan(result.text.indexOf('POST /small 2'));
    expect(result.closedByServer).toBe(true);
  });
  it('answers slow requests of a client that half-closed after sending them', async () => {
    behaviour = slow;
    const result = await rawRequest(port, 'GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n', { endAfter: true });
    expect(statuses(result.text)).toEqual([200, 200]);
    expect(result.closedByServer).toBe(true);
  });
  it('answers 408 in place of a body that stopped coming, and the handler never sees that request', async () => {
    // The connection failing mid-body silences that request: the handler must not run after the 408.
    seen.length = 0;
    behaviour = echo;
    const slowServer = createReferenceServer({ handler: (request) => behaviour(request), limitFor: () => LIMIT, logger: () => {} });
    slowServer.requestTimeout = 600;
    slowServer.headersTimeout = 500;
    await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', () => resolve()));
    try {
      const slowPort = (slowServer.address() as AddressInfo).port;
      const result = await rawRequest(slowPort, 'POST /small HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab', {
        chunks: ['cd'],
        gapMs: 1200,
        timeoutMs: 3000,
      });
      expect(statuses(result.text)).toEqual([408]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen).toEqual([]);
    } finally {
      await closeServer(slowServer);
    }
  });
});
