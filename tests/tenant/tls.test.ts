/**
 * `serve --tls`: the API over HTTPS with a local CA written next to the profile (tls.caFile). A client that
 * trusts the CA gets through; one that does not gets a TLS error that says what to do; `run --profile`
 * against a spawned `serve --tls --hooks` passes every check.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetClient } from '../../src/client/index.js';
import { isHarnessError } from '../../src/errors.js';
import { loadProfile } from '../../src/profile/index.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { runCli, startServe } from '../cli/support.js';

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ac-tls-'));
  sandbox = await startSandbox({ tls: true, profileDir: dir, seed: 'tls-test' });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('startSandbox({ tls: true })', () => {
  it('serves https and writes the CA next to the profile, named by tls.caFile', async () => {
    expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const caFile = sandbox.profileJson.tls?.caFile;
    expect(caFile).toBe('sandbox.ca.pem');
    const caPath = join(dirname(sandbox.profilePath), caFile as string);
    const pem = await readFile(caPath, 'utf8');
    expect(pem).toContain('-----BEGIN CERTIFICATE-----');
    expect(pem).not.toContain('PRIVATE KEY');
    expect((await stat(caPath)).mode & 0o777).toBe(0o600);
  });

  it('the harness client trusts the CA from the profile: token and owner IDs over https', async () => {
    const profile = await loadProfile(sandbox.profilePath);
    const client = createTargetClient(profile);
    try {
      const owners = await client.ownerIds(sandbox.tenant.apps.owners.appId);
      expect(owners.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('a client without the CA gets a clear TLS error', async () => {
    // Plain fetch: the certificate chain does not verify.
    const failure = await fetch(`${sandbox.baseUrl}/api/v1/apps/x/ownerids`).then(
      () => undefined,
      (error: unknown) => error as { cause?: { code?: string } },
    );
    expect(failure?.cause?.code).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT/);

    // The harness client with the profile's tls removed: HarnessError TLS, with the fix in the hint.
    const profile = await loadProfile(sandbox.profilePath);
    const client = createTargetClient({ ...profile, tls: { insecureSkipVerify: false } });
    try {
      const error = await client.ownerIds(sandbox.tenant.apps.owners.appId).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isHarnessError(error)).toBe(true);
      if (!isHarnessError(error)) return;
      expect(error.code).toBe('TLS');
      expect(error.message).toMatch(/TLS handshake .* failed \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)/);
      expect(error.hint).toMatch(/tls\.caFile/);
    } finally {
      await client.close();
    }
  });
});

describe('serve --tls', () => {
  it('run --profile against it passes every check (hooks on)', async () => {
    const profilePath = join(dir, 'cli', 'tls.target.json');
    const serve = await startServe(['--tls', '--hooks', '--profile-out', profilePath], profilePath);
    try {
      expect(serve.output()).toMatch(/TLS: the API speaks HTTPS; trust the local CA .*tls\.ca\.pem/);
      expect(serve.output()).toMatch(/NODE_EXTRA_CA_CERTS=.*tls\.ca\.pem/);
      const run = await runCli(['run', '--profile', profilePath, '--out', join(dir, 'reports')], { timeoutMs: 280_000 });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/\b(\d+) passed, 0 failed, 0 blocked, 0 errored, 0 skipped/);
    } finally {
      await serve.stop();
    }
  }, 300_000);
});
