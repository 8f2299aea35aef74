/**
 * The Client Secret's service-domain segment is independent of the tenant domain: by default the one the
 * official TypeScript and Python SDKs insist on, settable with --secret-domain, and the reference accepts
 * its own secrets whatever the segment (the suites assume no particular domain, ruling 1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTargetClient } from '../../src/client/index.js';
import { parseClientSecret } from '../../src/crypto/index.js';
import { loadProfile } from '../../src/profile/index.js';
import { DEFAULT_SECRET_DOMAIN } from '../../src/tenant/generate.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';

let dir: string;
let byDefault: Sandbox;
let custom: Sandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-secret-domain-'));
  byDefault = await startSandbox({ profileDir: join(dir, 'default'), seed: 'domain' });
  custom = await startSandbox({ profileDir: join(dir, 'custom'), seed: 'domain', secretDomain: 'svc.example.test' });
}, 60_000);

afterAll(async () => {
  await byDefault?.close();
  await custom?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the service-domain segment of the Client Secrets', () => {
  it('defaults to the one the official SDKs check, not the tenant host', () => {
    expect(DEFAULT_SECRET_DOMAIN).toBe('conductorone.com');
    expect(byDefault.tenant.tenantDomain).toBe('127.0.0.1');
    for (const credential of Object.values(byDefault.tenant.credentials)) {
      expect(parseClientSecret(credential.clientSecret).domain).toBe('conductorone.com');
      expect(credential.clientId).toMatch(/@127\.0\.0\.1\//);
    }
  });

  it('is what --secret-domain says, and the reference issues tokens with either grant method', async () => {
    for (const credential of Object.values(custom.tenant.credentials)) {
      expect(parseClientSecret(credential.clientSecret).domain).toBe('svc.example.test');
    }
    const client = createTargetClient(await loadProfile(custom.profilePath));
    try {
      expect((await client.requestToken({ method: 'secret' })).status).toBe(200);
      expect((await client.requestToken({ method: 'assertion' })).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it.each([
    [['--secret-domain', 'bad:domain'], /--secret-domain must be a domain name/],
    [['--secret-domain', 'has space'], /--secret-domain must be a domain name/],
    [['--secret-domain', ''], /--secret-domain must not be empty/],
    [['--tls', '--public-url', 'http://203.0.113.7:8080'], /--public-url must be an https URL/],
  ])('serve %j → exit 2', async (args, message) => {
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['serve', ...args])).toBe(2);
      expect(stderr).toMatch(message);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
