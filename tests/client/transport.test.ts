/**
 * Transport failures become HarnessErrors with stable codes, within their bounds; 429 Retry-After is
 * honoured; every attempt is recorded.
 */
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import { toTransportError } from '../../src/client/transport-errors.js';
import { retryAfterMs } from '../../src/client/rate-limit.js';
import { createLocalCa, issueServerCertificate } from '../../src/crypto/index.js';
import { isHarnessError } from '../../src/errors.js';
import { json, makeProfile, makeSecrets, startFixture, type Fixture, type TestSecrets } from './support/fixtures.js';
import { harnessError } from '../support/harness-error.js';

let secrets: TestSecrets;
let fixture: Fixture;
let attempts429 = 0;

beforeAll(async () => {
  secrets = await makeSecrets();
  fixture = await startFixture((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/hang') return; // never answers
    if (path === '/reset') {
      req.socket.destroy();
      return;
    }
    if (path === '/big') {
      json(res, 200, { blob: 'x'.repeat(5000) });
      return;
    }
    if (path === '/stream') {
      // Chunked, no content-length: the bound must stop the read.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1024, 0x61);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 64 || res.destroyed) {
          clearInterval(timer);
          res.end();
          return;
        }
        sent += 1;
        res.write(chunk);
      }, 1);
      return;
    }
    if (path === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      return; // headers arrive, the body never finishes
    }
    if (path === '/429-once') {
      attempts429 += 1;
      if (attempts429 === 1) json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      else json(res, 200, { ok: true });
      return;
    }
    if (path === '/429-date') {
      attempts429 += 1;
      if (attempts429 === 1) json(res, 429, {}, { 'retry-after': new Date(Date.now() + 1500).toUTCString() });
      else json(res, 200, { ok: true });
      return;
    }
    if (path === '/429-always') {
      json(res, 429, {}, { 'retry-after': '0' });
      return;
    }
    json(res, 200, { ok: true, path });
  });
});

afterAll(async () => {
  await fixture.close();
});

describe('transport errors', () => {
  it('a hung server gives TIMEOUT within the bound', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { timeoutMs: 300 });
    const error = await harnessError(client.request({ method: 'GET', url: '/hang' }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('/hang');
    expect(error.hint).toBeTruthy();
    const exchange = client.recorder.all().at(-1);
    expect(exchange?.error?.code).toBe('TIMEOUT');
    expect(exchange?.response).toBeUndefined();
    await client.close();
  });

  it('a body that stops mid-way gives TIMEOUT', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { timeoutMs: 300 });
    const error = await harnessError(client.request({ method: 'GET', url: '/slow-body' }));
    expect(error.code).toBe('TIMEOUT');
    await client.close();
  });

  it('a per-request timeout overrides the client one', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { timeoutMs: 20_000 });
    const error = await harnessError(client.request({ method: 'GET', url: '/hang', timeoutMs: 200 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('200 ms');
    await client.close();
  });

  it('a server that resets gives CONNECTION_RESET', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets));
    const error = await harnessError(client.request({ method: 'GET', url: '/reset' }));
    expect(error.code).toBe('CONNECTION_RESET');
    expect(error.message).toContain(fixture.url);
    await client.close();
  });

  it('a refused port gives TARGET_UNREACHABLE', async () => {
    const closed = await startFixture(() => {});
    const url = closed.url;
    await closed.close();
    const client = createTargetClient(makeProfile(url, secrets));
    const error = await harnessError(client.ownerIds('app-1', { token: null }));
    expect(error.code).toBe('TARGET_UNREACHABLE');
    expect(error.message).toContain(url);
    expect(error.message).toContain('ECONNREFUSED');
    await client.close();
  });

  it('a response over maxResponseBytes gives RESPONSE_TOO_LARGE (declared length)', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { maxResponseBytes: 1000 });
    const error = await harnessError(client.request({ method: 'GET', url: '/big' }));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    await client.close();
  });

  it('a streamed response over maxResponseBytes gives RESPONSE_TOO_LARGE', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { maxResponseBytes: 4096 });
    const error = await harnessError(client.request({ method: 'GET', url: '/stream' }));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    const exchange = client.recorder.all().at(-1);
    expect(exchange?.response?.status).toBe(200);
    expect(exchange?.error?.code).toBe('RESPONSE_TOO_LARGE');
    await client.close();
  });

  it('an invalid header value is a USAGE error, not a crash', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets));
    const error = await harnessError(client.request({ method: 'GET', url: '/x', headers: { 'x-bad': 'a\r\nb' } }));
    expect(error.code).toBe('USAGE');
    await client.close();
  });

  it('maps DNS, TLS and connect-timeout codes from the cause chain', () => {
    const ctx = { method: 'GET', url: 'https://t.test/x', timeoutMs: 1, connectTimeoutMs: 2, timedOut: false };
    const wrap = (code: string) => Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('x'), { code }) });
    expect(toTransportError(wrap('ENOTFOUND'), ctx).code).toBe('DNS');
    expect(toTransportError(wrap('EHOSTUNREACH'), ctx).code).toBe('TARGET_UNREACHABLE');
    expect(toTransportError(wrap('CERT_HAS_EXPIRED'), ctx).code).toBe('TLS');
    expect(toTransportError(wrap('ERR_TLS_CERT_ALTNAME_INVALID'), ctx).code).toBe('TLS');
    expect(toTransportError(wrap('UND_ERR_CONNECT_TIMEOUT'), ctx).code).toBe('TIMEOUT');
    expect(toTransportError(wrap('ECONNRESET'), ctx).code).toBe('CONNECTION_RESET');
    expect(toTransportError(wrap('HPE_INVALID_CONSTANT'), ctx).code).toBe('HTTP_PROTOCOL');
    expect(toTransportError(wrap('SOMETHING_NEW'), ctx).code).toBe('INTERNAL');
  });
});

describe('TLS', () => {
  it('a certificate outside the trusted CAs gives TLS; the right CA or insecureSkipVerify connects', async () => {
    const ca = await createLocalCa('client test CA');
    const leaf = await issueServerCertificate(ca, { ipAddresses: ['127.0.0.1'], dnsNames: [] });
    const server = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (_req, res) => json(res, 200, { ok: true }));
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const untrusted = createTargetClient(makeProfile(url, secrets));
      const error = await harnessError(untrusted.request({ method: 'GET', url: '/' }));
      expect(error.code).toBe('TLS');
      expect(error.hint).toContain('caFile');
      await untrusted.close();

      const trusted = createTargetClient(makeProfile(url, secrets, { tls: { ca: ca.certPem, insecureSkipVerify: false } }));
      expect((await trusted.request({ method: 'GET', url: '/' })).status).toBe(200);
      await trusted.close();

      const skip = createTargetClient(makeProfile(url, secrets, { tls: { insecureSkipVerify: true } }));
      expect((await skip.request({ method: 'GET', url: '/' })).status).toBe(200);
      await skip.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('429 and Retry-After', () => {
  it('waits for Retry-After seconds and retries', async () => {
    attempts429 = 0;
    const client = createTargetClient(makeProfile(fixture.url, secrets));
    const before = fixture.received.length;
    const response = await client.request({ method: 'GET', url: '/429-once' });
    expect(response.status).toBe(200);
    const hits = fixture.received.slice(before);
    expect(hits).toHaveLength(2);
    // Both attempts are recorded, the first with its 429.
    expect(client.recorder.all().map((e) => e.response?.status)).toEqual([429, 200]);
    await client.close();
  });

  it('accepts an HTTP-date Retry-After', async () => {
    attempts429 = 0;
    const client = createTargetClient(makeProfile(fixture.url, secrets));
    expect((await client.request({ method: 'GET', url: '/429-date' })).status).toBe(200);
    expect(attempts429).toBe(2);
    await client.close();
  });

  it('gives up after a bounded number of retries and returns the 429', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { max429Retries: 2 });
    const response = await client.request({ method: 'GET', url: '/429-always' });
    expect(response.status).toBe(429);
    expect(client.recorder.all()).toHaveLength(3);
    await client.close();
  });

  it('reads Retry-After as seconds or a date, bounded to 30 s', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(10_000);
    expect(retryAfterMs('3600', now, 60_000)).toBe(60_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBe(1000);
    expect(retryAfterMs('soon', now)).toBe(1000);
  });
});

describe('malformed answers', () => {
  it('a response that is not HTTP gives HTTP_PROTOCOL', async () => {
    const { createServer } = await import('node:net');
    const server = createServer((socket) => {
      socket.on('data', () => socket.end('this is not http\r\n\r\n'));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createTargetClient(makeProfile(url, secrets), { timeoutMs: 2000 });
    try {
      const error = await harnessError(client.request({ method: 'GET', url: '/' }));
      expect(error.code).toBe('HTTP_PROTOCOL');
    } finally {
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('close() returns even while a request hangs', async () => {
    const client = createTargetClient(makeProfile(fixture.url, secrets), { timeoutMs: 5000 });
    const pending = client.request({ method: 'GET', url: '/hang' }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.close();
    expect(isHarnessError(await pending)).toBe(true);
  });
});
