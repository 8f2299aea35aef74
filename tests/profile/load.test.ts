import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalCa, generateClientSecret, generateSigningKey, toPublicJwk } from '../../src/crypto/index.js';
import { loadProfile, resolveProfile } from '../../src/profile/index.js';
import { expectNoSecrets, FIXTURE, fixtureDoc, harnessError, material, withTempDir, writeJson, type Material } from './support.js';

let m: Material;
beforeAll(async () => {
  m = await material();
});

describe('loadProfile: valid profiles', () => {
  it('loads the full fixture, resolves env secrets and applies defaults', async () => {
    const p = await loadProfile(FIXTURE, { env: m.env });
    expect(p.version).toBe(1);
    expect(p.name).toBe('fixture: every section filled');
    expect(p.baseUrl).toBe('https://tenant.example.com'); // trailing slash stripped
    expect(p.webhookBaseUrl).toBe('https://tenant.example.com');
    expect(p.tenantDomain).toBe('tenant.example.com');
    expect(p.tls).toEqual({ insecureSkipVerify: false });
    expect(p.credentials.primary.clientSecret).toBe(m.env.AC_TEST_CLIENT_SECRET);
    expect(p.credentials.ipRestricted?.clientId).toBe('quiet-heron-0193@tenant.example.com/conformance-ip');
    expect(p.credentials.expired).toBeUndefined();
    expect(p.webhooks.hmac).toEqual({ listenerId: 'wh_hmac', secret: m.env.AC_TEST_HMAC_SECRET });
    expect(p.webhooks.jwt?.signingKeys).toEqual(m.keys);
    expect(p.webhooks.jwt?.serveJwks).toEqual({ url: 'https://127.0.0.1:8443/jwks.json' });
    expect(p.hooks).toEqual({ baseUrl: 'http://127.0.0.1:9000/__hooks', token: m.env.AC_TEST_HOOKS_TOKEN });
    expect(p.apps.entitlements.large).toEqual({ appId: 'app-large', count: 237 });
    expect(p.limits.webhookBodyBytes).toBe(65536);
    for (const secret of m.all) expect(p.secrets).toContain(secret);
    // Longest first for redaction.
    expect([...p.secrets].sort((a, b) => b.length - a.length)).toEqual(p.secrets);
    // Resolved profiles are plain JSON (vitest provide passes them to workers).
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('fills every default for a minimal profile', async () => {
    const { secret } = await generateClientSecret('svc.example');
    const p = await resolveProfile(
      { version: 1, baseUrl: 'http://127.0.0.1:8080', credentials: { primary: { clientId: 'a@tenant.local/x', clientSecret: secret } } },
      { baseDir: '/nonexistent', env: {} },
    );
    expect(p).toMatchObject({
      name: '127.0.0.1:8080',
      baseUrl: 'http://127.0.0.1:8080',
      tenantDomain: 'tenant.local',
      webhookBaseUrl: 'http://127.0.0.1:8080',
      tls: { insecureSkipVerify: false },
      apps: { entitlements: {} },
      webhooks: {},
      limits: { webhookBodyBytes: 65536 },
    });
    expect(p.hooks).toBeUndefined();
    expect(p.secrets).toContain(secret);
  });

  it('keeps explicit tenantDomain and webhookBaseUrl', async () => {
    const { secret } = await generateClientSecret('svc.example');
    const p = await resolveProfile(
      {
        version: 1,
        baseUrl: 'https://a.example',
        tenantDomain: 'b.example',
        webhookBaseUrl: 'https://public.example/prefix/',
        credentials: { primary: { clientId: 'a@a.example/x', clientSecret: secret } },
      },
      { baseDir: '.' },
    );
    expect(p.tenantDomain).toBe('b.example');
    expect(p.webhookBaseUrl).toBe('https://public.example/prefix');
  });

  it('reads files relative to the profile directory (keys file, CA, JWKS TLS pair)', async () => {
    await withTempDir(async (dir) => {
      const ca = await createLocalCa();
      await mkdir(join(dir, 'secrets'));
      await writeJson(join(dir, 'secrets', 'keys.json'), { keys: m.keys }); // JWKS-shaped file accepted
      await writeFile(join(dir, 'secrets', 'ca.pem'), ca.certPem);
      await writeFile(join(dir, 'secrets', 'key.pem'), ca.keyPem);
      const doc = fixtureDoc();
      doc.tls = { caFile: 'secrets/ca.pem', insecureSkipVerify: true };
      doc.webhooks.jwt.signingKeys = { file: 'secrets/keys.json' };
      doc.webhooks.jwt.serveJwks.tlsCertFile = 'secrets/ca.pem';
      doc.webhooks.jwt.serveJwks.tlsKeyFile = './secrets/key.pem';
      const path = await writeJson(join(dir, 'profile.json'), doc);
      const p = await loadProfile(path, { env: m.env });
      expect(p.tls).toEqual({ ca: ca.certPem, insecureSkipVerify: true });
      expect(p.webhooks.jwt?.signingKeys).toEqual(m.keys);
      expect(p.webhooks.jwt?.serveJwks).toEqual({ url: 'https://127.0.0.1:8443/jwks.json', tlsCert: ca.certPem, tlsKey: ca.keyPem });
      expect(p.secrets).toContain(ca.keyPem);
    });
  });

  it('accepts a UTF-8 byte-order mark', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'bom.json');
      await copyFile(FIXTURE, path);
      const { readFile } = await import('node:fs/promises');
      await writeFile(path, `\uFEFF${await readFile(path, 'utf8')}`);
      expect((await loadProfile(path, { env: m.env })).baseUrl).toBe('https://tenant.example.com');
    });
  });
});

describe('loadProfile: each mistake has its code, field and a secret-free message', () => {
  it('PROFILE_NOT_FOUND', async () => {
    const error = await harnessError(() => loadProfile('/nonexistent/dir/profile.json'));
    expect(error.code).toBe('PROFILE_NOT_FOUND');
    expect(error.message).toContain('/nonexistent/dir/profile.json');
  });

  it('PROFILE_UNREADABLE for a directory', async () => {
    await withTempDir(async (dir) => {
      expect((await harnessError(() => loadProfile(dir))).code).toBe('PROFILE_UNREADABLE');
    });
  });

  it('PROFILE_UNREADABLE for broken JSON, with line and column, without echoing content', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'broken.json');
      const secret = m.env.AC_TEST_CLIENT_SECRET;
      await writeFile(path, `{\n  "version": 1,\n  "secret": "${secret}",\n  "baseUrl": "x",,\n}`);
      const error = await harnessError(() => loadProfile(path));
      expect(error.code).toBe('PROFILE_UNREADABLE');
      expect(error.message).toMatch(/line 4, column \d+/);
      expectNoSecrets(error, [secret]);
    });
  });

  it('PROFILE_INVALID lists every schema problem in one message', async () => {
    const error = await harnessError(() =>
      resolveProfile(
        {
          version: 2,
          baseURL: 'https://x.example',
          baseUrl: 'not a url',
          credentials: { primary: { clientId: 'a@b.example/c', clientSecret: { env: '1BAD' } }, ipRestricted: { clientId: 'x' } },
          limits: { webhookBodyBytes: 10 },
          webhooks: { jwt: { listenerId: 'l', signingKeys: { file: 1 } } },
        },
        { baseDir: '.', env: {}, source: 'test.json' },
      ),
    );
    expect(error.code).toBe('PROFILE_INVALID');
    expect(error.field).toBeDefined();
    const lines = error.message.split('\n');
    expect(lines[0]).toMatch(/test\.json has \d+ problems/);
    expect(error.message).toContain('version: must be 1');
    expect(error.message).toContain('baseURL: is not a known field; did you mean "baseUrl"?');
    expect(error.message).toContain('baseUrl: must be an absolute URL like https://tenant.example.com');
    expect(error.message).toContain('credentials.primary.clientSecret.env: must be an environment variable name');
    expect(error.message).toContain('credentials.ipRestricted.clientSecret: is required but missing');
    expect(error.message).toContain('limits.webhookBodyBytes: must be at least 1024');
    expect(error.message).toContain('webhooks.jwt.signingKeys.file: must be a string');
    // No noise from the oneOf branches the value was not meant for.
    expect(error.message).not.toContain('must be an array');
  });

  it('PROFILE_INVALID for a secret of the wrong shape says which forms are allowed', async () => {
    const error = await harnessError(() =>
      resolveProfile(
        { version: 1, baseUrl: 'https://a.example', credentials: { primary: { clientId: 'a@a.example/x', clientSecret: 42 } } },
        { baseDir: '.' },
      ),
    );
    expect(error.field).toBe('credentials.primary.clientSecret');
    expect(error.message).toContain('credentials.primary.clientSecret: must be a non-empty string or {"env": "VARIABLE_NAME"}');
  });

  const semantic: Array<[string, (doc: Record<string, any>) => void, string, RegExp]> = [
    ['Client ID', (d) => (d.credentials.primary.clientId = 'no-at-sign.example/x'), 'credentials.primary.clientId', /missing-at/],
    ['baseUrl scheme', (d) => (d.baseUrl = 'ftp://tenant.example.com'), 'baseUrl', /http or https/],
    ['baseUrl query', (d) => (d.baseUrl = 'https://tenant.example.com/?a=1'), 'baseUrl', /query/],
    ['baseUrl user', (d) => (d.baseUrl = 'https://u:p@tenant.example.com'), 'baseUrl', /user name/],
    ['tenantDomain', (d) => (d.tenantDomain = 'https://tenant.example.com'), 'tenantDomain', /bare hostname/],
    ['JWKS url', (d) => (d.webhooks.jwt.serveJwks.url = 'http://127.0.0.1/jwks.json'), 'webhooks.jwt.serveJwks.url', /https/],
    ['JWKS TLS pair', (d) => (d.webhooks.jwt.serveJwks.tlsCertFile = 'x.pem'), 'webhooks.jwt.serveJwks', /both/],
  ];
  it.each(semantic)('PROFILE_INVALID: %s', async (_name, mutate, field, pattern) => {
    const doc = fixtureDoc();
    mutate(doc);
    const error = await harnessError(() => resolveProfile(doc, { baseDir: '/nonexistent', env: m.env }));
    expect(error.code).toBe('PROFILE_INVALID');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(pattern);
    expectNoSecrets(error, [...m.all, 'secret-token:svc:v2:abc']);
  });

  it('leaves a malformed Client Secret or Client ID to the CRED checks, still redacting the secret', async () => {
    const doc = fixtureDoc();
    doc.tenantDomain = 'tenant.example.com';
    doc.credentials.primary.clientSecret = 'secret-token:svc:v2:abcdefgh';
    doc.credentials.primary.clientId = 'no-at-sign.example/x';
    const profile = await resolveProfile(doc, { baseDir: '/nonexistent', env: m.env });
    expect(profile.credentials.primary.clientSecret).toBe('secret-token:svc:v2:abcdefgh');
    expect(profile.secrets).toContain('secret-token:svc:v2:abcdefgh');
    expect(profile.secrets).toContain('abcdefgh');
    expect(profile.tenantDomain).toBe('tenant.example.com');
  });

  it('PROFILE_INVALID: signing keys without private parts, bad alg, duplicate kid (inline or from a variable)', async () => {
    const es = await generateSigningKey('ES256', 'same');
    const ed = await generateSigningKey('EdDSA', 'same');
    const env = { ...m.env, AC_TEST_JWT_KEYS: JSON.stringify([toPublicJwk(es), { ...ed, alg: 'HS256' }, ed]) };
    const error = await harnessError(() => loadProfile(FIXTURE, { env }));
    expect(error.code).toBe('PROFILE_INVALID');
    expect(error.field).toBe('webhooks.jwt.signingKeys[0].d');
    expect(error.message).toContain('webhooks.jwt.signingKeys[1].alg: must be RS256, ES256 or EdDSA');
    expect(error.message).toContain('webhooks.jwt.signingKeys[2].kid: repeats');
    expect(error.message).toContain('variable AC_TEST_JWT_KEYS');
    expectNoSecrets(error, [...m.all, es.d as string, ed.d as string]);
  });

  it('PROFILE_INVALID: a keys variable that is not JSON, without echoing it', async () => {
    const env = { ...m.env, AC_TEST_JWT_KEYS: `[${JSON.stringify(m.keys[0])},` };
    const error = await harnessError(() => loadProfile(FIXTURE, { env }));
    expect(error.code).toBe('PROFILE_INVALID');
    expect(error.field).toBe('webhooks.jwt.signingKeys');
    expect(error.message).toContain('is not valid JSON');
    expectNoSecrets(error, m.all);
  });

  it('PROFILE_SECRET_MISSING names every unset variable and its field', async () => {
    const { AC_TEST_HMAC_SECRET: _h, AC_TEST_JWT_KEYS: _k, ...env } = m.env;
    const error = await harnessError(() => loadProfile(FIXTURE, { env: { ...env, AC_TEST_HOOKS_TOKEN: '' } }));
    expect(error.code).toBe('PROFILE_SECRET_MISSING');
    expect(error.field).toBe('webhooks.hmac.secret');
    expect(error.message).toContain('webhooks.hmac.secret: environment variable AC_TEST_HMAC_SECRET is not set');
    expect(error.message).toContain('webhooks.jwt.signingKeys: environment variable AC_TEST_JWT_KEYS is not set');
    expect(error.message).toContain('hooks.token: environment variable AC_TEST_HOOKS_TOKEN is empty');
    expectNoSecrets(error, m.all);
  });

  it('PROFILE_FILE_MISSING resolves relative paths against the profile directory', async () => {
    await withTempDir(async (dir) => {
      const doc = fixtureDoc();
      doc.webhooks.jwt.signingKeys = { file: 'keys/missing.json' };
      doc.tls = { caFile: '/nonexistent/ca.pem' };
      const path = await writeJson(join(dir, 'p.json'), doc);
      const error = await harnessError(() => loadProfile(path, { env: m.env }));
      expect(error.code).toBe('PROFILE_FILE_MISSING');
      expect(error.field).toBe('webhooks.jwt.signingKeys');
      expect(error.message).toContain(join(dir, 'keys/missing.json'));
      expect(error.message).toContain('tls.caFile: file /nonexistent/ca.pem cannot be read (ENOENT)');
      expectNoSecrets(error, m.all);
    });
  });

  it('PROFILE_INVALID for a CA file that holds no certificate', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'ca.pem'), 'not a certificate');
      const doc = fixtureDoc();
      doc.tls = { caFile: 'ca.pem' };
      const path = await writeJson(join(dir, 'p.json'), doc);
      const error = await harnessError(() => loadProfile(path, { env: m.env }));
      expect(error.code).toBe('PROFILE_INVALID');
      expect(error.field).toBe('tls.caFile');
    });
  });
});
