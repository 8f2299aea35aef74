/**
 * The request firewall (ruling 35): what an operation's request may be, decided before the token is
 * attached; a refusal is REQUEST_REFUSED naming the operation and never sent. The end-to-end proof, with a
 * logging proxy and a catcher listener, is tests/hostile/description-*.test.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestFirewall } from '../../src/client/firewall.js';
import { createTargetClient } from '../../src/client/index.js';
import { isHarnessError } from '../../src/errors.js';
import { makeProfile, makeSecrets } from './support/fixtures.js';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isHarnessError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'sent';
}

describe('RequestFirewall', () => {
  const reads = [{ method: 'POST', path: '/api/v1/search/apps' }, { method: 'POST', path: '/api/v1/search/{kind}', sentPath: '/api/v1/search/users' }];
  const firewall = new RequestFirewall('http://127.0.0.1:4000', reads);

  it('builds the URL on the baseUrl origin, each parameter one encoded segment, the query encoded', () => {
    expect(firewall.operation({ method: 'GET', path: '/api/v1/apps/{app_id}/entitlements', params: { app_id: 'a b?#@' } }, [['page_size', '10'], ['page_token', '']])).toEqual({
      url: 'http://127.0.0.1:4000/api/v1/apps/a%20b%3F%23%40/entitlements?page_size=10&page_token=',
      sentPath: '/api/v1/apps/a%20b%3F%23%40/entitlements?page_size=10&page_token=',
    });
    expect(new RequestFirewall('https://h.example/prefix/').operation({ method: 'GET', path: '/api/v1/apps' }).url).toBe('https://h.example/prefix/api/v1/apps');
  });

  it.each([
    [{ method: 'GET', path: '@127.0.0.1:9/api/v1/things' }, /REQUEST_REFUSED: GET @127\.0\.0\.1:9\/api\/v1\/things was not sent: .*ruling 35/],
    [{ method: 'GET', path: '//127.0.0.1:9/api/v1/things' }, /"\/\/"/],
    [{ method: 'GET', path: 'http://127.0.0.1:9/x' }, /absolute URL/],
    [{ method: 'POST', path: '/api/v1/search/../apps' }, /dot segment/],
    [{ method: 'POST', path: '/api/v1/search/{kind}', params: { kind: '..' } }, /\{kind\} is "\.\."/],
    [{ method: 'POST', path: '/api/v1/apps' }, /a POST to an operation the run's plan does not classify as a read/],
    [{ method: 'DELETE', path: '/api/v1/apps' }, /DELETE is never sent/],
    [{ method: 'PUT', path: '/api/v1/apps' }, /PUT is never sent/],
  ])('refuses %j', (target, why) => {
    expect(refusal(() => firewall.operation(target))).toMatch(why);
  });

  it('POST only to a read of the plan, by template or by the path it was planned to send', () => {
    expect(firewall.operation({ method: 'POST', path: '/api/v1/search/apps' }).sentPath).toBe('/api/v1/search/apps');
    expect(firewall.operation({ method: 'POST', path: '/api/v1/search/{kind}', params: { kind: 'users' } }).sentPath).toBe('/api/v1/search/users');
    expect(firewall.rawPath('POST', '/api/v1/search/users').sentPath).toBe('/api/v1/search/users');
    expect(refusal(() => firewall.rawPath('POST', '/api/v1/search/groups'))).toMatch(/does not classify as a read/);
  });

  it('method overrides in the query or the body are refused', () => {
    expect(refusal(() => firewall.operation({ method: 'GET', path: '/api/v1/apps' }, [['_method', 'DELETE']]))).toMatch(/method override "_method"/);
    expect(refusal(() => firewall.operation({ method: 'POST', path: '/api/v1/search/apps' }, [], { _method: 'DELETE' }))).toMatch(/body carries the method override/);
    expect(refusal(() => firewall.rawPath('GET', '/api/v1/apps?x=1&_method=DELETE'))).toMatch(/query carries the method override/);
  });

  it('a raw path: harmless %XX passes, an encoded "/" or "." or a dot segment does not', () => {
    expect(firewall.rawPath('GET', '/api/v1/apps/a%20b/ownerids').url).toBe('http://127.0.0.1:4000/api/v1/apps/a%20b/ownerids');
    expect(refusal(() => firewall.rawPath('GET', '/api/v1/apps/%2e%2e/ownerids'))).toMatch(/percent-encoded byte \(%2e\)/);
    expect(refusal(() => firewall.rawPath('GET', '/api/v1/apps/a%2Fb'))).toMatch(/percent-encoded byte \(%2F\)/);
    expect(refusal(() => firewall.rawPath('GET', '/api/v1/apps/../x'))).toMatch(/dot segment/);
    expect(refusal(() => firewall.rawPath('GET', '/api/v1/apps#x'))).toMatch(/"#"/);
  });
});

describe('the client sends nothing the firewall refuses', () => {
  let server: Server;
  const seen: Array<{ line: string; authorization?: string }> = [];
  let baseUrl = '';

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      seen.push({ line: `${req.method} ${req.url}`, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      res.setHeader('content-type', 'application/json');
      res.end(req.url?.startsWith('/auth/v1/token') ? JSON.stringify({ access_token: 'tok-12345678', token_type: 'Bearer', expires_in: 3600 }) : '{"list":[],"nextPageToken":""}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a refused operation call rejects with REQUEST_REFUSED and the server sees nothing; an allowed one carries the token', async () => {
    const client = createTargetClient(makeProfile(baseUrl, await makeSecrets(), { hooks: undefined }), { readOperations: [{ method: 'POST', path: '/api/v1/search/apps' }] });
    try {
      await expect(client.operationCall({ operation: { method: 'POST', path: '/api/v1/search/../apps' }, body: { pageSize: 10 } })).rejects.toMatchObject({ code: 'REQUEST_REFUSED' });
      await expect(client.operationCall({ operation: { method: 'POST', path: '/api/v1/apps' }, body: { pageSize: 10 } })).rejects.toMatchObject({ code: 'REQUEST_REFUSED' });
      await expect(client.apiCall({ method: 'GET', path: '@127.0.0.1:1/api/v1/things' })).rejects.toMatchObject({ code: 'REQUEST_REFUSED' });
      expect(seen).toEqual([]);
      const res = await client.operationCall({ operation: { method: 'POST', path: '/api/v1/search/apps' }, body: { pageSize: 10 } });
      expect(res.status).toBe(200);
      expect(seen.map((entry) => entry.line)).toEqual(['POST /auth/v1/token', 'POST /api/v1/search/apps']);
      expect(seen[1]?.authorization).toBe('Bearer tok-12345678');
      // The access token, now known, goes to no other origin, however a request is built.
      const elsewhere = `http://127.0.0.1:${(server.address() as AddressInfo).port === 1 ? 2 : 1}/x`;
      await expect(client.request({ method: 'GET', url: elsewhere, headers: { authorization: 'Bearer tok-12345678' } })).rejects.toMatchObject({
        code: 'REQUEST_REFUSED',
        message: expect.stringMatching(/carries the run's access token to http:\/\/127\.0\.0\.1:\d+, not the profile's baseUrl origin/),
      });
      // To the baseUrl's origin, a raw request with it goes (the checks send such requests).
      expect((await client.request({ method: 'GET', url: `${baseUrl}/y`, headers: { authorization: 'Bearer tok-12345678' } })).status).toBe(200);
    } finally {
      await client.close();
    }
  });
});
