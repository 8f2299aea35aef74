/** Tenant generation, the written profile, startSandbox options and customisation. */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseClientId } from '../../src/crypto/client-id.js';
import { loadProfile, validateProfileDocument } from '../../src/profile/index.js';
import { createHttpsJwksFetcher } from '../../src/reference/jwks.js';
import { generateTenant, startSandbox, UNREACHABLE_CIDRS, type Sandbox } from '../../src/tenant/index.js';
import { createAddressMatcher } from '../../src/reference/cidr.js';
import { credentialExpiry } from '../../src/reference/credentials.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-tenant-test-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('generateTenant', () => {
  it('derives every name and ID from the seed, and never reuses keys', async () => {
    const a = await generateTenant({ seed: 's1', host: '127.0.0.1', port: 8080, jwksPort: 9443 });
    const b = await generateTenant({ seed: 's1', host: '127.0.0.1', port: 8080, jwksPort: 9443 });
    const c = await generateTenant({ seed: 's2', host: '127.0.0.1', port: 8080, jwksPort: 9443 });
    const names = (t: typeof a) => ({
      clients: Object.values(t.credentials).map((x) => x.clientId),
      apps: [t.apps.owners, t.apps.large, t.apps.exact, t.apps.empty].map((app) => [app.appId, app.ownerIds, app.entitlements.map((e) => e.displayName)]),
      listeners: Object.values(t.listeners).map((l) => l.listenerId),
    });
    expect(names(a)).toEqual(names(b));
    expect(names(a)).not.toEqual(names(c));
    expect(a.credentials.primary.clientSecret).not.toBe(b.credentials.primary.clientSecret);
    expect(a.listeners.hmac.secret).not.toBe(b.listeners.hmac.secret);
  });
  it('builds the tenant the issue asks for', async () => {
    const t = await generateTenant({ seed: 'shape', host: '127.0.0.1', port: 8080, jwksPort: 9443 });
    expect(t.baseUrl).toBe('http://127.0.0.1:8080');
    for (const credential of Object.values(t.credentials)) {
      const parsed = parseClientId(credential.clientId);
      expect(parsed.hostname).toBe('127.0.0.1');
      expect(credential.clientSecret.startsWith('secret-token:')).toBe(true);
      expect(JSON.stringify(credential.config)).not.toContain(credential.clientSecret);
    }
    const now = Date.now() / 1000;
    expect(credentialExpiry(t.credentials.primary.config)).toBe(Infinity);
    expect(credentialExpiry(t.credentials.expired.config)).toBeLessThan(now);
    expect(createAddressMatcher(t.credentials.ipRestricted.config.allowedCidrs).allows('127.0.0.1')).toBe(false);
    expect(createAddressMatcher(t.listeners.ipRestricted.config.allowedCidrs).allows('::1')).toBe(false);
    expect(t.apps.large.entitlements).toHaveLength(237);
    expect(t.apps.exact.entitlements).toHaveLength(50);
    expect(t.apps.empty.entitlements).toHaveLength(0);
    expect(new Set(t.apps.large.entitlements.map((e) => e.id)).size).toBe(237);
    expect([t.apps.owners, t.apps.large, t.apps.exact, t.apps.empty].map((a) => a.appId)).not.toContain(t.apps.missingAppId);
    expect(t.listeners.jwt.signingKeys.map((k) => k.alg).sort()).toEqual(['ES256', 'EdDSA', 'RS256']);
    expect(t.listeners.jwt.config.jwksUrl).toBe('https://127.0.0.1:9443/jwks.json');
    expect(t.listeners.jwtUnreachableJwks.config.jwksUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/jwks\.json$/);
    expect(t.listeners.inactive.config.published && t.listeners.inactive.config.enabled).toBe(false);
    expect(Buffer.from(t.listeners.hmac.secret, 'base64url')).toHaveLength(32);
    expect(UNREACHABLE_CIDRS).toContain('203.0.113.0/24');
  });
  it('uses the public URL and JWKS host when given', async () => {
    const t = await generateTenant({ seed: 'pub', host: '0.0.0.0', publicBaseUrl: 'http://sandbox.example.test:8443/', jwksHost: 'host.docker.internal', jwksPort: 9443 });
    expect(t.baseUrl).toBe('http://sandbox.example.test:8443');
    expect(t.tenantDomain).toBe('sandbox.example.test');
    expect(parseClientId(t.credentials.primary.clientId).hostname).toBe('sandbox.example.test');
    expect(t.jwks.url).toBe('https://host.docker.internal:9443/jwks.json');
    const san = new X509Certificate(t.jwks.certPem).subjectAltName ?? '';
    expect(san).toContain('DNS:host.docker.internal');
    expect(san).toContain('IP Address:127.0.0.1');
  });
});

describe('startSandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 'profile', hooks: true, profilePath: join(tempDir(), 'out', 'x.target.json'), logger: () => {} });
  });
  afterAll(async () => sandbox?.close());

  it('writes a schema-valid profile that the profile loader resolves, owner-only', async () => {
    expect(validateProfileDocument(sandbox.profileJson)).toEqual({ ok: true });
    expect(statSync(sandbox.profilePath).mode & 0o777).toBe(0o600);
    const resolved = await loadProfile(sandbox.profilePath);
    expect(resolved.baseUrl).toBe(sandbox.baseUrl);
    expect(resolved.tenantDomain).toBe('127.0.0.1');
    expect(resolved.webhooks.jwt?.serveJwks?.tlsCert).toContain('BEGIN CERTIFICATE');
    expect(resolved.webhooks.jwt?.serveJwks?.tlsKey).toContain('PRIVATE KEY');
    expect(resolved.hooks?.baseUrl).toBe(`${sandbox.baseUrl}/__hooks/v1`);
    expect(resolved.limits.webhookBodyBytes).toBe(65_536);
    expect(resolved.apps.entitlements.large?.count).toBe(237);
    // The IP-restricted credential and listener name their blocks (forwarding-header checks); nothing else does.
    expect(resolved.credentials.ipRestricted?.allowedCidrs).toEqual(UNREACHABLE_CIDRS);
    expect(resolved.webhooks.ipRestricted?.allowedCidrs).toEqual(UNREACHABLE_CIDRS);
    expect(resolved.credentials.primary.allowedCidrs).toBeUndefined();
    expect(resolved.webhooks.hmac?.allowedCidrs).toBeUndefined();
  });
  it('omits hooks from the profile unless asked, and cleans its temporary directory', async () => {
    const plain = await startSandbox({ seed: 'plain', logger: () => {} });
    expect(plain.profileJson.hooks).toBeUndefined();
    expect(existsSync(plain.profilePath)).toBe(true);
    await plain.close();
    expect(existsSync(plain.profilePath)).toBe(false);
  });
  it('applies customize: wrapped handler and replaced ports', async () => {
    let frozen = 1_000_000;
    const custom = await startSandbox({
      seed: 'custom',
      hooks: true,
      logger: () => {},
      customize: {
        wrapHandler: (handler) => async (request) => {
          const response = await handler(request);
          return { ...response, headers: { ...response.headers, 'x-wrapped': 'yes' } };
        },
        deps: () => ({ clock: { now: () => frozen, advance: (s: number) => void (frozen += s) } }),
        limitFor: (inner) => (method, url) => (url.startsWith('/__hooks/') ? 10 : inner(method, url)),
      },
    });
    try {
      const auth = { authorization: `Bearer ${custom.tenant.hooks.token}` };
      const response = await fetch(`${custom.baseUrl}/__hooks/v1/clock`, { headers: auth });
      expect(response.headers.get('x-wrapped')).toBe('yes');
      expect(await response.json()).toEqual({ now: 1_000_000 });
      const tooLong = await fetch(`${custom.baseUrl}/__hooks/v1/clock`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: 1, pad: 'xxxx' }),
      });
      expect(tooLong.status).toBe(413);
    } finally {
      await custom.close();
    }
  });
  it('refuses a port in use with a harness error', async () => {
    const port = Number(new URL(sandbox.baseUrl).port);
    await expect(startSandbox({ port, logger: () => {} })).rejects.toMatchObject({ name: 'HarnessError', code: 'USAGE' });
  });
});

describe('HTTPS JWKS fetcher', () => {
  it('trusts the sandbox CA, refuses an untrusted certificate and a non-JWKS answer', async () => {
    const t = await generateTenant({ seed: 'fetch', host: '127.0.0.1', port: 1, jwksPort: 1 });
    let answer = JSON.stringify({ keys: [{ kty: 'OKP', kid: 'k' }] });
    const server = createServer({ cert: t.jwks.certPem, key: t.jwks.keyPem }, (_req, res) => res.end(answer));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    try {
      expect((await createHttpsJwksFetcher({ caPem: t.jwks.caPem })(url)).keys[0]?.kid).toBe('k');
      await expect(createHttpsJwksFetcher()(url)).rejects.toThrow();
      answer = '{"nokeys":true}';
      await expect(createHttpsJwksFetcher({ caPem: t.jwks.caPem })(url)).rejects.toThrow(/keys/);
      await expect(createHttpsJwksFetcher({ caPem: t.jwks.caPem })(url.replace('https', 'http'))).rejects.toThrow(/https/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
