/**
 * The JWT listener at the developer's own JWKS (issue 45, `serve --jwks-url`, `--jwks-ca`, the x-jwks-url
 * hook): a JWKS served on 127.0.0.1 over plain http and over https under a private CA (the crypto room's
 * local CA); a webhook JWT signed with the developer's key is accepted, one signed with another key under
 * the same kid refused; http anywhere but loopback refused; an https JWKS under a CA nobody named refused.
 * Real servers on 127.0.0.1 port 0; the sandbox composed as serve composes it (combineFaults).
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCa, issueServerCertificate } from '../../src/crypto/certificates-lazy.js';
import { newEd25519Jwk } from '../../src/crypto/ed25519.js';
import { combineFaults } from '../../src/faults/index.js';
import { developerJwks, jwksUrlProblem, JWKS_URL_HOOK } from '../../src/tenant/developer-jwks.js';
import { startSandbox, type Sandbox } from '../../src/tenant/sandbox.js';
import { call, nowSeconds, publicJwk, sha256Url, signJwt, type Jwk } from '../reference/support/wire.js';

const KID = 'developer-key-1';

/** A fresh Ed25519 key (never a synchronous key-generation job: tests/architecture/no-sync-keygen.test.ts). */
function ed25519(kid: string): Jwk {
  return { ...newEd25519Jwk(), kid, alg: 'EdDSA' };
}

const developer = ed25519(KID);
/** Another key under the developer's kid: its signatures must not verify. */
const impostor = ed25519(KID);

const servers: Server[] = [];

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const jwksBody = (key: Jwk): string => JSON.stringify({ keys: [publicJwk(key)] });

async function httpJwks(key: Jwk): Promise<string> {
  const port = await listen(createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwksBody(key))));
  return `http://127.0.0.1:${port}/jwks.json`;
}

async function httpsJwks(key: Jwk, cert: { certPem: string; keyPem: string }): Promise<string> {
  const port = await listen(createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwksBody(key))));
  return `https://127.0.0.1:${port}/jwks.json`;
}

/** One JWT webhook to the sandbox's `jwt` listener, signed with `key`; its status. */
async function jwtWebhook(sandbox: Sandbox, key: Jwk): Promise<number> {
  const url = `${sandbox.baseUrl}/api/v1/webhooks/incoming/${sandbox.tenant.listeners.jwt.listenerId}`;
  const body = JSON.stringify({ from: 'developer-jwks' });
  const eventId = randomUUID();
  const t = nowSeconds();
  const jwt = signJwt({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' }, { sub: sandbox.baseUrl, aud: url, exp: t + 300, jti: eventId, htm: 'POST', htb_s256: sha256Url(body) }, key);
  const headers = { 'content-type': 'application/json', 'webhook-timestamp': String(t), 'webhook-event-id': eventId, authorization: `Bearer ${jwt}` };
  return (await call(url, { method: 'POST', headers, body })).status;
}

const sandboxes: Sandbox[] = [];
/** The reference's log lines (a JWKS it could not fetch says why). */
const logged: string[] = [];
async function sandboxWith(options: Parameters<typeof developerJwks>[0]): Promise<Sandbox> {
  const sandbox = await startSandbox({ seed: 'developer-jwks', hooks: true, jwksTimeoutMs: 5000, logger: (line) => void logged.push(line), customize: combineFaults([{ customize: developerJwks(options) }]) });
  sandboxes.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('the JWKS URL a developer may set', () => {
  it('takes https anywhere and plain http on a loopback address only', () => {
    expect(jwksUrlProblem('https://keys.example.com/jwks.json')).toBeUndefined();
    for (const ok of ['http://127.0.0.1:9000/jwks.json', 'http://127.8.9.10/j', 'http://[::1]:9000/j', 'http://localhost:9000/j']) expect(jwksUrlProblem(ok), ok).toBeUndefined();
    expect(jwksUrlProblem('http://192.168.1.5:9000/jwks.json')).toMatch(/plain http:\/\/ is accepted only on a loopback address.*192\.168\.1\.5/);
    expect(jwksUrlProblem('http://keys.example.com/jwks.json')).toMatch(/loopback/);
    expect(jwksUrlProblem('ftp://127.0.0.1/jwks.json')).toMatch(/not https/);
    expect(jwksUrlProblem('not a url')).toMatch(/not a URL/);
    expect(jwksUrlProblem('https://user:pass@keys.example.com/')).toMatch(/password/);
  });
});

describe('the jwt listener at the developer\'s JWKS', () => {
  it('over plain http on 127.0.0.1: the developer\'s key is accepted, another key under its kid refused', async () => {
    const sandbox = await sandboxWith({ url: await httpJwks(developer) });
    expect(sandbox.tenant.listeners.jwt.config.jwksUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/jwks\.json$/);
    expect(await jwtWebhook(sandbox, developer)).toBe(200);
    expect(await jwtWebhook(sandbox, impostor)).toBe(401);
  });

  it('over https under a private CA named with --jwks-ca; the same JWKS without that CA is refused', async () => {
    const ca = await createLocalCa('developer private CA');
    const url = await httpsJwks(developer, await issueServerCertificate(ca, { ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] }));
    const trusted = await sandboxWith({ url, caPem: ca.certPem });
    expect(await jwtWebhook(trusted, developer)).toBe(200);
    expect(await jwtWebhook(trusted, impostor)).toBe(401);
    const untrusted = await sandboxWith({ url });
    expect(await jwtWebhook(untrusted, developer)).toBe(401);
    expect(logged.join('\n')).toMatch(/cannot fetch the JWKS.*(certificate|self-signed)/);
  });

  it('through the x-jwks-url hook: set while serving, the new JWKS\'s key accepted at once; bad URLs and tokens refused', async () => {
    const sandbox = await sandboxWith({});
    const hook = `${sandbox.baseUrl}${JWKS_URL_HOOK}`;
    const auth = { authorization: `Bearer ${sandbox.tenant.hooks.token}`, 'content-type': 'application/json' };
    // The tenant's own JWKS (nobody serves it here): the developer's key is not in it.
    expect(await jwtWebhook(sandbox, developer)).toBe(401);
    expect((await call(hook, { method: 'POST', headers: { ...auth, authorization: 'Bearer wrong' }, body: '{}' })).status).toBe(401);
    const remote = await call(hook, { method: 'POST', headers: auth, body: JSON.stringify({ jwksUrl: 'http://198.51.100.7/jwks.json' }) });
    expect(remote.status).toBe(400);
    expect(remote.json.error_description).toMatch(/loopback/);
    const url = await httpJwks(developer);
    const set = await call(hook, { method: 'POST', headers: auth, body: JSON.stringify({ jwksUrl: url }) });
    expect(set.json).toEqual({ listenerId: sandbox.tenant.listeners.jwt.listenerId, jwksUrl: url });
    expect((await call(hook, { headers: auth })).json.jwksUrl).toBe(url);
    expect(await jwtWebhook(sandbox, developer)).toBe(200);
    expect(await jwtWebhook(sandbox, impostor)).toBe(401);
  });

  it('without hooks, the hook\'s path is the service\'s unknown path', async () => {
    const sandbox = await startSandbox({ seed: 'developer-jwks', customize: combineFaults([{ customize: developerJwks({}) }]) });
    sandboxes.push(sandbox);
    const answer = await call(`${sandbox.baseUrl}${JWKS_URL_HOOK}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(answer.status).toBe(404);
  });
});

beforeAll(() => {
  expect(developer.kid).toBe(impostor.kid);
});
