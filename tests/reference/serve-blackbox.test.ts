/**
 * A client written without the harness: node:crypto, fetch and node:https only (no src/client, no
 * src/crypto, no src/reference). It starts `access-conformance serve` (the built CLI, as `npm test` builds it
 * first), reads the written profile, and does everything the "done when" lists: a token both ways,
 * owners, every page, HMAC and JWT webhooks getting each status code of §7, and a 30-way duplicate race.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  clientAssertion,
  hmacSignature,
  serveJwks,
  sha256Url,
  signJwt,
  uuid,
  type Jwk,
  type JwksServer,
  type SandboxProfile,
  type WireResponse,
} from './support/wire.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(ROOT, 'bin', 'access-conformance.js');
const dir = mkdtempSync(join(tmpdir(), 'ac-serve-blackbox-'));
const profilePath = join(dir, 'sandbox.target.json');

let child: ChildProcess;
let output = '';
let p: SandboxProfile;
let jwks: JwksServer;
let exitCode: Promise<number | null>;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  child = spawn(process.execPath, [BIN, 'serve', '--hooks', '--seed', 'blackbox', '--profile-out', profilePath], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exitCode = new Promise((res) => child.on('exit', (code) => res(code)));
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 45_000;
  while (!/Press Ctrl-C/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  p = JSON.parse(readFileSync(profilePath, 'utf8')) as SandboxProfile;
  const serve = p.webhooks.jwt.serveJwks;
  const url = new URL(serve.url);
  jwks = await serveJwks(
    readFileSync(join(dir, serve.tlsCertFile), 'utf8'),
    readFileSync(join(dir, serve.tlsKeyFile), 'utf8'),
    url.hostname,
    Number(url.port),
    p.webhooks.jwt.signingKeys,
  );
}, 60_000);

afterAll(async () => {
  await jwks?.close();
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const now = async (): Promise<number> => {
  const response = await call(`${p.hooks?.baseUrl}/clock`, { headers: { authorization: `Bearer ${p.hooks?.token}` } });
  return Math.floor(response.json.now);
};

const tokenRequest = (fields: Record<string, string>): Promise<WireResponse> =>
  call(`${p.baseUrl}/auth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

async function hmacWebhook(
  listener: { listenerId: string; secret: string },
  o: { eventId?: string; body?: string; timestamp?: string; signature?: string; contentType?: string | null } = {},
): Promise<number> {
  const body = o.body ?? JSON.stringify({ from: 'blackbox' });
  const timestamp = o.timestamp ?? String(await now());
  const eventId = o.eventId ?? uuid();
  const headers: Record<string, string> = {
    'webhook-timestamp': timestamp,
    'webhook-event-id': eventId,
    'webhook-signature': o.signature ?? hmacSignature(listener.secret, timestamp, eventId, body),
  };
  if (o.contentType !== null) headers['content-type'] = o.contentType ?? 'application/json';
  return (await call(`${p.baseUrl}/api/v1/webhooks/incoming/${listener.listenerId}`, { method: 'POST', headers, body })).status;
}

async function jwtWebhook(key: Jwk, o: { eventId?: string; claims?: Record<string, unknown>; listenerId?: string } = {}): Promise<number> {
  const listenerId = o.listenerId ?? p.webhooks.jwt.listenerId;
  const url = `${p.baseUrl}/api/v1/webhooks/incoming/${listenerId}`;
  const body = JSON.stringify({ from: 'blackbox-jwt', alg: key.alg });
  const eventId = o.eventId ?? uuid();
  const t = await now();
  const claims = { sub: p.baseUrl, aud: url, exp: t + 300, jti: eventId, htm: 'POST', htb_s256: sha256Url(body), ...o.claims };
  const jwt = signJwt({ alg: key.alg, kid: key.kid, typ: 'JWT' }, claims, key);
  const headers = { 'content-type': 'application/json', 'webhook-timestamp': String(t), 'webhook-event-id': eventId, authorization: `Bearer ${jwt}` };
  return (await call(url, { method: 'POST', headers, body })).status;
}

describe('access-conformance serve, from its profile alone', () => {
  it('prints the base URL and the profile path, never a secret', () => {
    expect(output).toContain(p.baseUrl);
    expect(output).toContain(profilePath.split('/').pop());
    const secrets = [
      ...Object.values(p.credentials).map((c) => c.clientSecret),
      p.webhooks.hmac.secret,
      p.webhooks.hmacSecond.secret,
      p.hooks?.token ?? 'no-hooks-token',
    ];
    for (const secret of secrets) expect(output).not.toContain(secret);
  });

  it('issues a token with the secret and with a signed assertion', async () => {
    const { clientId, clientSecret } = p.credentials.primary;
    const bySecret = await tokenRequest({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
    expect(bySecret.status).toBe(200);
    expect(bySecret.json.token_type).toBe('Bearer');
    const byAssertion = await tokenRequest({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_id: clientId,
      client_assertion: clientAssertion(clientId, clientSecret, p.tenantDomain, await now()),
    });
    expect(byAssertion.status).toBe(200);
    expect(byAssertion.json.access_token).not.toBe(bySecret.json.access_token);
  });

  it('lists owners and walks every page', async () => {
    const { clientId, clientSecret } = p.credentials.primary;
    const token = (await tokenRequest({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret })).json.access_token;
    const auth = { authorization: `Bearer ${token}` };
    const owners = await call(`${p.baseUrl}/api/v1/apps/${p.apps.owners.appId}/ownerids`, { headers: auth });
    expect([...owners.json.userIds].sort()).toEqual([...(p.apps.owners.ownerIds ?? [])].sort());
    for (const app of Object.values(p.apps.entitlements)) {
      const ids = new Set<string>();
      let pageToken = '';
      for (let page = 0; page < 50; page += 1) {
        const response = await call(`${p.baseUrl}/api/v1/apps/${app.appId}/entitlements?page_size=25&page_token=${encodeURIComponent(pageToken)}`, { headers: auth });
        expect(response.status).toBe(200);
        for (const item of response.json.list) ids.add(item.appEntitlement.id);
        pageToken = response.json.nextPageToken;
        if (pageToken === '') break;
      }
      expect(pageToken).toBe('');
      expect(ids.size).toBe(app.count);
    }
  });

  it('answers HMAC webhooks with each status code of §7', async () => {
    const eventId = uuid();
    expect(await hmacWebhook(p.webhooks.hmac, { eventId })).toBe(200);
    expect(await hmacWebhook(p.webhooks.hmac, { eventId })).toBe(409);
    expect(await hmacWebhook(p.webhooks.hmac, { contentType: null })).toBe(400);
    expect(await hmacWebhook(p.webhooks.hmac, { timestamp: String((await now()) - 330) })).toBe(400);
    expect(await hmacWebhook(p.webhooks.hmac, { eventId: 'f47ac10b-58cc-11cf-a447-00aa00bf8c11' })).toBe(400);
    expect(await hmacWebhook(p.webhooks.hmac, { body: '{"broken":' })).toBe(400);
    expect(await hmacWebhook(p.webhooks.hmac, { signature: 'wrong' })).toBe(401);
    expect(await hmacWebhook(p.webhooks.ipRestricted)).toBe(403);
    expect(await hmacWebhook(p.webhooks.hmac, { body: JSON.stringify({ pad: 'x'.repeat(p.limits.webhookBodyBytes) }) })).toBe(413);
    expect(await hmacWebhook({ listenerId: 'wh_NOPE', secret: 'x' })).toBe(404);
    expect(await hmacWebhook(p.webhooks.inactive)).not.toBe(200);
  });

  it('answers JWT webhooks (RS256, ES256, EdDSA) with 200, 409, 401 and 400', async () => {
    for (const key of p.webhooks.jwt.signingKeys) expect({ alg: key.alg, status: await jwtWebhook(key) }).toEqual({ alg: key.alg, status: 200 });
    const key = p.webhooks.jwt.signingKeys[0] as Jwk;
    const eventId = uuid();
    expect(await jwtWebhook(key, { eventId })).toBe(200);
    expect(await jwtWebhook(key, { eventId })).toBe(409);
    expect(await jwtWebhook(key, { claims: { htm: 'GET' } })).toBe(401);
    expect(await jwtWebhook(key, { claims: { exp: (await now()) - 100 } })).toBe(401);
    const unreachable = p.webhooks.jwtUnreachableJwks;
    expect(
      await jwtWebhook(unreachable.signingKeys[0] as Jwk, {
        listenerId: unreachable.listenerId,
        claims: { aud: `${p.baseUrl}/api/v1/webhooks/incoming/${unreachable.listenerId}` },
      }),
    ).toBe(401);
    expect(await jwtWebhook(key, { eventId: 'nope', claims: { jti: 'nope' } })).toBe(400);
  });

  it('answers exactly one 200 among 30 concurrent duplicates', async () => {
    const eventId = uuid();
    const timestamp = String(await now());
    const statuses = await Promise.all(Array.from({ length: 30 }, () => hmacWebhook(p.webhooks.hmac, { eventId, timestamp })));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);
    const runs = await call(`${p.hooks?.baseUrl}/runs?listenerId=${p.webhooks.hmac.listenerId}`, { headers: { authorization: `Bearer ${p.hooks?.token}` } });
    expect(runs.json.runs.filter((run: { eventId: string }) => run.eventId === eventId)).toHaveLength(1);
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    child.kill('SIGTERM');
    expect(await exitCode).toBe(0);
  });
});
