/**
 * Issue 47's one way out, observed from outside: `serve --hooks` behind a logging proxy (the profile's
 * baseUrl and hooks point at the proxy), a catcher listener standing for another origin. A library caller
 * (or a suite, the engine, a reporter: they all hold the same TargetClient) asks the client for writes and
 * for URLs off the profile's origins, and `send --replay` is given tampered recipes: each is
 * REQUEST_REFUSED, and what the proxy and the catcher received is the verdict: none of it. The requests the
 * harness does make (GET, the token, a webhook, the hooks' calls, the clock's advance) still arrive.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import { fetchDescriptionText } from '../../src/client/description-fetch.js';
import { replay } from '../../src/client/replay.js';
import type { ReplayRecipe, TargetClient } from '../../src/client/types.js';
import { loadProfile } from '../../src/profile/load.js';
import { lines, runCli, startCatcher, startProxy, startServeTarget, writeIn, type Listener, type ServeTarget } from './description-support.js';

/** The client call's error code, or 'sent'. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'sent';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('every request through the client\'s firewall (issue 47)', () => {
  let target: ServeTarget;
  let proxy: Listener;
  let catcher: Listener;
  let profilePath: string;
  let client: TargetClient;

  beforeAll(async () => {
    target = await startServeTarget('client-firewall');
    catcher = await startCatcher();
    proxy = await startProxy(target.profile.baseUrl);
    const hooks = target.profile.hooks as { baseUrl: string; token: string };
    const hooksPath = new URL(hooks.baseUrl).pathname;
    profilePath = writeIn(target, 'proxied.target.json', JSON.stringify({ ...target.profile, baseUrl: proxy.url, hooks: { ...hooks, baseUrl: `${proxy.url}${hooksPath}` } }));
    client = createTargetClient(await loadProfile(profilePath), { max429Retries: 0 });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([proxy?.close(), catcher?.close()]);
    await target?.close();
  });

  it('a write or a URL off the profile\'s origins asked of TargetClient is REQUEST_REFUSED, and nothing reaches the proxy or the catcher', async () => {
    proxy.seen.length = 0;
    const token = (await client.token()).accessToken;
    const hooksToken = client.profile.hooks!.token!;
    const hooksBase = client.profile.hooks!.baseUrl;
    const asked: Array<[string, () => Promise<unknown>]> = [
      ['DELETE on the baseUrl', () => client.request({ method: 'DELETE', url: '/api/v1/apps/x' })],
      ['PUT on the baseUrl', () => client.request({ method: 'PUT', url: '/api/v1/apps/x', body: '{}' })],
      ['PATCH on the baseUrl', () => client.request({ method: 'PATCH', url: '/api/v1/apps/x', body: '{}' })],
      ['a POST to a path that is no read', () => client.request({ method: 'POST', url: '/api/v1/webhooks', body: '{}' })],
      ['a POST to a listener path with two segments', () => client.request({ method: 'POST', url: '/api/v1/webhooks/incoming/a/b', body: '{}' })],
      ['a POST to a token path with a prefix', () => client.request({ method: 'POST', url: '/x/auth/v1/token', body: '' })],
      ['a GET to another origin', () => client.request({ method: 'GET', url: `${catcher.url}/api/v1/apps` })],
      ['a POST to another origin', () => client.request({ method: 'POST', url: `${catcher.url}/auth/v1/token`, body: 'a=b' })],
      ['a webhook to another origin, as a raw request', () => client.request({ method: 'POST', url: `${catcher.url}/api/v1/webhooks/incoming/x`, body: '{}' })],
      ['the access token to another origin', () => client.request({ method: 'GET', url: `${catcher.url}/x`, headers: { authorization: `Bearer ${token}` } })],
      ['the hooks token outside the hooks', () => client.request({ method: 'GET', url: '/api/v1/apps', headers: { authorization: `Bearer ${hooksToken}` } })],
      ['the access token to the hooks', () => client.request({ method: 'GET', url: `${hooksBase}/clock`, headers: { authorization: `Bearer ${token}` } })],
      ['a hook call the hooks do not have', () => client.request({ method: 'POST', url: `${hooksBase}/runs`, headers: { authorization: `Bearer ${hooksToken}` }, body: '{}' })],
      ['DELETE on the hooks', () => client.request({ method: 'DELETE', url: `${hooksBase}/clock`, headers: { authorization: `Bearer ${hooksToken}` } })],
      ['an apiCall that writes', () => client.apiCall({ method: 'POST', path: '/api/v1/apps' })],
      ['an operationCall that deletes', () => client.operationCall({ operation: { method: 'DELETE', path: '/api/v1/apps/{id}' }, params: { id: 'x' } } as never)],
      ['a replayed recipe that writes on the baseUrl', () => replay(client, { kind: 'request', method: 'DELETE', url: `${proxy.url}/api/v1/apps/x`, headers: {} } as ReplayRecipe)],
      ['a replayed recipe that POSTs to a write', () => replay(client, { kind: 'request', method: 'POST', url: `${proxy.url}/api/v1/webhooks`, headers: { authorization: { $token: 'primary:secret' } }, body: '{}' } as unknown as ReplayRecipe)],
    ];
    const seenBefore = proxy.seen.length;
    const results = [];
    for (const [what, call] of asked) results.push(`${what}: ${await outcome(call)}`);
    expect(results).toEqual(asked.map(([what]) => `${what}: REQUEST_REFUSED`));
    // A replay reads the target's clock through the hooks first (its fresh timestamp); nothing else was sent.
    expect(lines(proxy).slice(seenBefore).filter((line) => line !== 'GET /__hooks/v1/clock')).toEqual([]);
    expect(lines(catcher)).toEqual([]);
  });

  it('the description client: a GET of the URL named, no credential, nothing else', async () => {
    catcher.seen.length = 0;
    // The URL the user named may be anywhere (the catcher stands for it): it is fetched, once, with GET and no token.
    await fetchDescriptionText(client.profile, {}, `${catcher.url}/openapi.json`, 1024);
    expect(lines(catcher)).toEqual(['GET /openapi.json']);
    expect(catcher.seen[0]!.headers.authorization).toBeUndefined();
    catcher.seen.length = 0;
  });

  it('what the harness does send still arrives: GET, the token, a webhook, the hooks\' calls and the clock\'s advance', async () => {
    proxy.seen.length = 0;
    client.resetTokens();
    await client.token();
    expect((await client.request({ method: 'GET', url: '/api/v1/apps/none/entitlements' })).status).toBeGreaterThan(0);
    expect((await client.sendWebhook('hmac', {})).status).toBe(200);
    await client.hooks!.now();
    await client.hooks!.runs(client.profile.webhooks.hmac!.listenerId);
    await client.hooks!.advance(1);
    const seen = lines(proxy).map((line) => line.split('?')[0]);
    const hooksPath = new URL(client.profile.hooks!.baseUrl).pathname;
    expect(seen).toEqual(expect.arrayContaining([
      'POST /auth/v1/token',
      'GET /api/v1/apps/none/entitlements',
      `POST /api/v1/webhooks/incoming/${client.profile.webhooks.hmac!.listenerId}`,
      `GET ${hooksPath}/clock`,
      `GET ${hooksPath}/runs`,
      `POST ${hooksPath}/clock`,
    ]));
    expect(lines(catcher)).toEqual([]);
  });

  it('send --replay of a tampered recipe (a DELETE; a POST to a write; another origin) is refused, and sends nothing', async () => {
    const recipes: Array<[string, ReplayRecipe]> = [
      ['delete', { kind: 'request', method: 'DELETE', url: `${proxy.url}/api/v1/apps/x`, headers: {} } as ReplayRecipe],
      ['write', { kind: 'request', method: 'POST', url: `${proxy.url}/api/v1/webhooks`, headers: { 'content-type': 'application/json' }, body: '{}' } as ReplayRecipe],
      ['elsewhere', { kind: 'request', method: 'GET', url: `${catcher.url}/api/v1/apps`, headers: {} } as ReplayRecipe],
    ];
    for (const [name, recipe] of recipes) {
      const file = writeIn(target, `${name}.reproduction.json`, JSON.stringify({
        format: 'access-conformance.reproduction', version: 1, check: 'OPS-01', level: 'MUST',
        recorded: { status: 200, method: recipe.kind === 'request' ? recipe.method : 'POST', url: 'x' }, recipe,
      }));
      proxy.seen.length = 0;
      const result = await runCli(['send', '--profile', profilePath, '--replay', file, '--out', join(target.dir, `out-${name}`)], target.dir);
      expect(result.code, `${name}: ${result.stdout}\n${result.stderr}`).toBe(2);
      expect(result.stderr, name).toMatch(name === 'elsewhere' ? /not the target the profile names|REQUEST_REFUSED/ : /REQUEST_REFUSED|was not sent/);
      expect(lines(proxy).filter((line) => line !== 'GET /__hooks/v1/clock'), name).toEqual([]);
      expect(lines(catcher), name).toEqual([]);
    }
  }, 120_000);

  it('send --replay of a recorded search page (a POST to a read of the profile\'s plan) is sent, and reproduces', async () => {
    const recipe = {
      kind: 'request',
      method: 'POST',
      url: `${proxy.url}/api/v1/search/apps`,
      headers: { 'content-type': 'application/json', authorization: { $concat: ['Bearer ', { $token: 'primary:secret' }] } },
      body: '{"pageSize":10}',
    };
    const file = writeIn(target, 'search.reproduction.json', JSON.stringify({
      format: 'access-conformance.reproduction', version: 1, check: 'OPS-01', level: 'MUST',
      recorded: { status: 200, method: 'POST', url: 'x' }, recipe,
    }));
    proxy.seen.length = 0;
    const result = await runCli(['send', '--profile', profilePath, '--replay', file, '--out', join(target.dir, 'out-search')], target.dir);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(lines(proxy)).toContain('POST /api/v1/search/apps');
    expect(lines(catcher)).toEqual([]);
  }, 60_000);
});
