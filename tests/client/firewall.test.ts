/**
 * The request firewall (ruling 35): what an operation's request may be, decided before the token is
 * attached; a refusal is REQUEST_REFUSED naming the operation and never sent. The end-to-end proof, with a
 * logging proxy and a catcher listener, is tests/hostile/description-*.test.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestFirewall } from '../../src/client/firewall.js';
import { descriptionOutbound, targetOutbound } from '../../src/client/outbound.js';
import { createPrimingClient } from '../../src/client/load-fetch.js';
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
        message: expect.stringMatching(/it would go to http:\/\/127\.0\.0\.1:\d+, not the profile's origin/),
      });
      // To the baseUrl's origin, a raw request with it goes (the checks send such requests).
      expect((await client.request({ method: 'GET', url: `${baseUrl}/y`, headers: { authorization: 'Bearer tok-12345678' } })).status).toBe(200);
    } finally {
      await client.close();
    }
  });
});

describe('the one way out (outbound.ts): each rule of the table, and what no rule allows', () => {
  const guard = targetOutbound({
    baseUrl: 'http://127.0.0.1:4000/prefix',
    hooks: { baseUrl: 'http://127.0.0.1:4001/__hooks/v1', token: 'hooks-token' },
    isReadPost: (path) => path === '/api/v1/search/apps',
    isAccessToken: (value) => value === 'access-1',
  });
  const check = (method: string, url: string, headers: Record<string, string> = {}): string => refusal(() => guard({ method, url, headers }));

  it.each([
    ['GET', 'http://127.0.0.1:4000/anything/at/all?x=1'],
    ['GET', 'http://127.0.0.1:4001/elsewhere-on-the-hooks-origin'],
    ['POST', 'http://127.0.0.1:4000/prefix/auth/v1/token?x=1'],
    ['POST', 'http://127.0.0.1:4000/prefix/api/v1/webhooks/incoming/wh_1'],
    ['POST', 'http://127.0.0.1:4000/prefix/api/v1/search/apps'],
    ['GET', 'http://127.0.0.1:4001/__hooks/v1/clock'],
    ['POST', 'http://127.0.0.1:4001/__hooks/v1/clock'],
    ['GET', 'http://127.0.0.1:4001/__hooks/v1/runs?listenerId=a'],
  ])('allows %s %s', (method, url) => {
    expect(check(method, url, url.includes('__hooks') ? { authorization: 'Bearer hooks-token' } : {})).toBe('sent');
  });

  it.each([
    ['DELETE', 'http://127.0.0.1:4000/prefix/api/v1/apps/1', /DELETE is never sent/],
    ['PUT', 'http://127.0.0.1:4000/prefix/api/v1/apps/1', /PUT is never sent/],
    ['POST', 'http://127.0.0.1:4000/prefix/api/v1/apps', /a POST to \/api\/v1\/apps is none the harness makes/],
    ['POST', 'http://127.0.0.1:4000/auth/v1/token', /none the harness makes/],
    ['POST', 'http://127.0.0.1:4000/prefix/api/v1/webhooks/incoming/a/b', /none the harness makes/],
    ['POST', 'http://127.0.0.1:4000/prefix/api/v1/search/%2e%2e/apps', /none the harness makes/],
    ['GET', 'http://127.0.0.1:9/x', /it would go to http:\/\/127\.0\.0\.1:9, not the profile's origin/],
    ['POST', 'http://127.0.0.1:9/prefix/auth/v1/token', /it would go to/],
    ['POST', 'http://127.0.0.1:4001/__hooks/v1/runs', /not a call of the test hooks/],
    ['DELETE', 'http://127.0.0.1:4001/__hooks/v1/clock', /not a call of the test hooks/],
    ['GET', 'not a url', /not an absolute URL/],
  ])('refuses %s %s', (method, url, reason) => {
    expect(check(method, url)).toMatch(new RegExp(`^REQUEST_REFUSED: .*${reason.source}`));
  });

  it('each credential goes only where it belongs', () => {
    expect(check('GET', 'http://127.0.0.1:4001/__hooks/v1/clock', { authorization: 'Bearer access-1' })).toMatch(/not the hooks' own token/);
    expect(check('GET', 'http://127.0.0.1:4000/prefix/api/v1/apps', { authorization: 'Bearer hooks-token' })).toMatch(/test hooks' token somewhere other/);
    expect(check('GET', 'http://127.0.0.1:4001/other', { authorization: 'Bearer access-1' })).toMatch(/carries the run's access token to http:\/\/127\.0\.0\.1:4001/);
    expect(check('GET', 'http://127.0.0.1:4000/prefix/api/v1/apps', { authorization: 'Bearer access-1' })).toBe('sent');
  });

  it('the description client: a GET of exactly the URL named, without a credential', () => {
    const description = descriptionOutbound('https://docs.example/openapi.yaml');
    const fetch = (method: string, url: string, headers: Record<string, string> = {}): string => refusal(() => description({ method, url, headers }));
    expect(fetch('GET', 'https://docs.example/openapi.yaml')).toBe('sent');
    expect(fetch('POST', 'https://docs.example/openapi.yaml')).toMatch(/GET only/);
    expect(fetch('GET', 'https://docs.example/other.yaml')).toMatch(/the URL the user named and nothing else/);
    expect(fetch('GET', 'https://docs.example/openapi.yaml', { authorization: 'Bearer x' })).toMatch(/without a credential/);
    expect(fetch('GET', 'https://docs.example/openapi.yaml', { Cookie: 'a=b' })).toMatch(/without a credential/);
  });
});

describe('the load driver\'s priming client (client/load-fetch.ts): its own rule, nothing else sent', () => {
  it('refuses a write, a POST elsewhere and a path off the origin before any byte; GET, the token and a webhook go', async () => {
    const lines: string[] = [];
    const server = createServer((req, res) => {
      lines.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const priming = createPrimingClient(origin, { connectTimeoutMs: 2000, timeoutMs: 2000, insecureSkipVerify: false });
    const send = (method: string, path: string): Promise<string> =>
      priming.fetch({ method: method as 'GET', path, headers: {} }, { origin, timeoutMs: 2000, connectTimeoutMs: 2000, maxBytes: 1024 }).then(
        (answer) => `sent ${answer.status}`,
        (error: unknown) => (isHarnessError(error) ? error.code : String(error)),
      );
    try {
      expect(await send('DELETE', '/api/v1/apps/1')).toBe('REQUEST_REFUSED');
      expect(await send('PUT', '/api/v1/webhooks/incoming/wh_1')).toBe('REQUEST_REFUSED');
      expect(await send('POST', '/api/v1/apps')).toBe('REQUEST_REFUSED');
      expect(await send('GET', '//127.0.0.1:1/x')).toBe('REQUEST_REFUSED');
      expect(lines).toEqual([]);
      expect(await send('GET', '/api/v1/apps')).toBe('sent 200');
      expect(await send('POST', '/prefix/auth/v1/token')).toBe('sent 200');
      expect(await send('POST', '/api/v1/webhooks/incoming/wh_1')).toBe('sent 200');
      expect(lines).toEqual(['GET /api/v1/apps', 'POST /prefix/auth/v1/token', 'POST /api/v1/webhooks/incoming/wh_1']);
    } finally {
      await priming.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
