// Images run under a real Docker engine: startImageTarget directly, then `access-conformance run --image`
// end to end. Skipped (with the reason) unless AC_DOCKER_TESTS=1, which .ci/run sets once `docker info`
// answers; when set, these must pass. One file, so the images are built once and these runs never overlap;
// docker/Dockerfile's own build (dockerfile.test.ts) runs beside them, and each file counts only its own
// containers as left behind.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeContainer, startImageTarget, type ImageTarget } from '../../src/containers/index.js';
import { listFaults } from '../../src/faults/index.js';
import { requirement } from '../../src/requirements/catalogue.js';
import { loadProfile } from '../../src/profile/index.js';
import { readReport, runCli, runProcess } from './support/cli.js';
import { BAD_IMAGES, buildTestImages, DOCKER_ENABLED, DOCKER_SKIP_REASON, leftoverContainers, NO_EXEC_IMAGE, removeTestImages } from './support/images.js';
import { harnessError } from '../support/harness-error.js';
import { keyPair, statementOf } from '../attest/support.js';
import { skipUnless } from '../support/capabilities.js';

const FULL_RUN_MS = 300_000;
let reference = '';
let work = '';

const leftovers = (): Promise<string[]> => leftoverContainers(false);

beforeAll(async () => {
  if (!DOCKER_ENABLED) return;
  work = await mkdtemp(join(tmpdir(), 'ac-docker-test-'));
  ({ reference } = await buildTestImages());
}, 600_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
  // The full lane must leave the engine as it found it: no image of ours behind (the issue counted five).
  if (DOCKER_ENABLED) expect(await removeTestImages(), 'images the container tests could not remove').toEqual([]);
}, 120_000);

describe('startImageTarget', () => {
  it('starts the reference image, hands over a valid profile, and removes the container on stop', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const reportDir = join(work, 'direct');
    const target: ImageTarget = await startImageTarget({ image: reference, env: {}, startupTimeoutMs: 90_000, keepContainer: false, reportDir, hooks: true });
    try {
      expect(target.networkMode).toBe('host');
      expect(target.describe).toContain('on the host network');
      // On the host network the profile's JWKS URL names 127.0.0.1, which the engine binds as it is.
      expect(target.jwksListenHost).toBeUndefined();
      const profile = await loadProfile(target.profilePath);
      expect(profile.baseUrl).toBe(target.baseUrl);
      const clock = await fetch(`${profile.hooks?.baseUrl}/clock`, { headers: { authorization: `Bearer ${profile.hooks?.token}` } });
      expect(clock.status).toBe(200);
      expect(await leftovers()).toContain(target.containerId);
      const log = await readFile(join(reportDir, 'container.log'), 'utf8');
      expect(log).toContain(`serving ${target.baseUrl}`);
      for (const secret of profile.secrets) expect(log.includes(secret)).toBe(false);
    } finally {
      await target.stop();
    }
    expect(await leftovers()).not.toContain(target.containerId);
    expect(existsSync(target.profilePath)).toBe(false);
  }, 120_000);

  it('keeps the container when asked to', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const target = await startImageTarget({ image: reference, env: {}, startupTimeoutMs: 90_000, keepContainer: true, reportDir: join(work, 'kept'), hooks: false });
    try {
      await target.stop();
      expect(await leftovers()).toContain(target.containerId);
      const profile = await loadProfile(target.profilePath);
      expect(profile.hooks).toBeUndefined();
    } finally {
      await removeContainer(target.containerId);
      await rm(join(target.profilePath, '..', '..'), { recursive: true, force: true });
    }
  }, 120_000);

  it('never pulls: a missing image is IMAGE_NOT_FOUND with the build hint', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const error = await harnessError(
      startImageTarget({ image: 'access-conformance-test-absent:0', env: {}, startupTimeoutMs: 5_000, keepContainer: false, reportDir: join(work, 'absent'), hooks: true }),
    );
    expect(error.code).toBe('IMAGE_NOT_FOUND');
    expect(error.hint).toContain('npm run image:reference');
  });

  it('reports an image the engine cannot start, and leaves no container behind', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const error = await harnessError(
      startImageTarget({ image: NO_EXEC_IMAGE, env: {}, startupTimeoutMs: 30_000, keepContainer: false, reportDir: join(work, 'noexec'), hooks: true }),
    );
    expect(error.code).toBe('IMAGE_START_FAILED');
    expect(error.message).toContain('/no/such/program');
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('reports a fault name the image does not know as a failed start, quoting its log', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const error = await harnessError(
      startImageTarget({
        image: reference,
        env: { CONFORMANCE_FAULT: 'no-such-fault' },
        startupTimeoutMs: 60_000,
        keepContainer: false,
        reportDir: join(work, 'unknown-fault'),
        hooks: true,
      }),
    );
    expect(error.code).toBe('IMAGE_START_FAILED');
    expect(error.message).toContain('exited with code 2');
    expect(error.message).toContain('unknown fault "no-such-fault"');
    expect(await leftovers()).toEqual([]);
  }, 90_000);
});

describe('access-conformance run --image', () => {
  it('checks the reference image with the same totals as the embedded reference', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const embeddedOut = join(work, 'embedded');
    const imageOut = join(work, 'image');
    const embedded = await runCli(['run', '--reporter', 'json', '--out', embeddedOut], FULL_RUN_MS);
    expect(embedded.code, embedded.stderr).toBe(0);
    const image = await runCli(['run', '--image', reference, '--reporter', 'json', '--out', imageOut], FULL_RUN_MS);
    expect(image.code, `${image.stdout}\n${image.stderr}`).toBe(0);

    const [a, b] = await Promise.all([readReport(embeddedOut), readReport(imageOut)]);
    expect(b.totals).toEqual(a.totals);
    expect(b.totals.passed).toBeGreaterThan(0);
    expect(b.target.description).toContain('on the host network');
    expect(existsSync(join(imageOut, 'container.log'))).toBe(true);
    expect(await leftovers()).toEqual([]);
  }, 2 * FULL_RUN_MS + 60_000);

  it('checks it behind a mapped port too (--image-network bridge): the container fetches the JWKS through the host gateway', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    // The harness still calls 127.0.0.1 (the mapped port); the container reaches the harness's JWKS server
    // as host.docker.internal, on the bridge's gateway address.
    const out = join(work, 'bridge');
    const result = await runCli(['run', '--image', reference, '--image-network', 'bridge', '--reporter', 'json', '--out', out], FULL_RUN_MS);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const report = await readReport(out);
    expect(report.totals).toMatchObject({ failed: 0, errored: 0 });
    expect(report.target.description).toMatch(/behind mapped port \d+ \(bridge, requested; JWKS served on [\d.]+\)/);
    // On this local Linux engine host.docker.internal is docker0's address: served there, not everywhere.
    expect(report.target.description).not.toContain('JWKS served on 0.0.0.0');
    expect(await leftovers()).toEqual([]);
  }, FULL_RUN_MS + 30_000);

  it('attests what it checked by the image\'s own ID (run --attest --image), and verify accepts it', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    const { privatePem, publicPem } = await keyPair('ed25519');
    const keyDir = await mkdtemp(join(work, 'attest-key-'));
    await writeFile(join(keyDir, 'signing.pem'), privatePem, { mode: 0o600 });
    await writeFile(join(keyDir, 'signing.pub.pem'), publicPem);
    const out = join(work, 'attested');
    const result = await runCli(['run', '--image', reference, '--only', 'WH-HMAC-01', '--attest', '--signing-key', join(keyDir, 'signing.pem'), '--out', out], FULL_RUN_MS);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const inspected = await runProcess('docker', ['image', 'inspect', '--format', '{{.Id}}', reference], 60_000);
    const imageId = inspected.stdout.trim();
    expect(imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    const bundle = JSON.parse(await readFile(join(out, 'attestation.sigstore.json'), 'utf8')) as Parameters<typeof statementOf>[0];
    expect(statementOf(bundle).subject).toEqual([{ name: reference, digest: { sha256: imageId.slice('sha256:'.length) } }]);
    const verified = await runCli(['verify', join(out, 'attestation.sigstore.json'), '--key', join(keyDir, 'signing.pub.pem'), '--subject', `${reference}@${imageId}`, '--report', join(out, 'report.json')], 60_000);
    expect(verified.code, `${verified.stdout}\n${verified.stderr}`).toBe(0);
    expect(await leftovers()).toEqual([]);
  }, FULL_RUN_MS + 30_000);

  it('fails (exit 1) on the reference image with a fault switched on', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    // A fault that breaks a MUST: one that only breaks SHOULDs is (rightly) exit 0 without --strict.
    const fault = listFaults().find((candidate) => candidate.breaks.some((id) => requirement(id).level === 'MUST'));
    expect(fault, 'a fault in src/faults that breaks a MUST requirement, to switch on in the image').toBeDefined();
    if (fault === undefined) return; // narrowing only: asserted above
    const only = fault.breaks.join(',');
    const result = await runCli(
      ['run', '--image', reference, '--image-env', `CONFORMANCE_FAULT=${fault.name}`, '--only', only, '--out', join(work, 'faulty')],
      FULL_RUN_MS,
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(1);
    expect(await leftovers()).toEqual([]);
  }, FULL_RUN_MS + 30_000);

  it('removes the container when the run is interrupted', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    let pid = 0;
    // Held to 20 requests a second: the whole run now ends within seconds of the container's start, and the
    // signal must find it running.
    const running = runCli(['run', '--image', reference, '--rate-limit', '20/s', '--out', join(work, 'interrupted')], FULL_RUN_MS, {
      onStart: (started) => (pid = started),
    });
    // Interrupt once the container is up and its profile accepted (the run's header is printed then).
    const deadline = Date.now() + 90_000;
    while ((await leftovers()).length === 0 && Date.now() < deadline) await sleep(250);
    expect(await leftovers()).toHaveLength(1);
    await sleep(1_000);
    process.kill(pid, 'SIGINT');
    const result = await running;
    expect(result.stderr).toContain('SIGINT: removing the started container');
    expect(await leftovers()).toEqual([]);
  }, FULL_RUN_MS + 30_000);

  const badCases = [
    { name: 'exits at start', bad: BAD_IMAGES.exits, code: 'IMAGE_START_FAILED', timeout: '60s' },
    { name: 'never writes its profile', bad: BAD_IMAGES.silent, code: 'IMAGE_PROFILE_TIMEOUT', timeout: '6s' },
    { name: 'writes an invalid profile', bad: BAD_IMAGES.invalid, code: 'PROFILE_INVALID', timeout: '60s' },
  ] as const;
  for (const { name, bad, code, timeout } of badCases) {
    it(`exits 2 with the container's last log lines when the image ${name}`, async (ctx) => {
      skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
      const result = await runCli(['run', '--image', bad.image, '--image-startup-timeout', timeout, '--out', join(work, code)], 120_000);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`error[${code}]`);
      expect(result.stderr).toContain(bad.marker);
      // Bounded by the startup timeout plus the CLI's own start and the container's removal.
      expect(result.elapsedMs).toBeLessThan(Number.parseInt(timeout, 10) * 1000 + 45_000);
      expect(await leftovers()).toEqual([]);
    }, 150_000);
  }
});
