// docker/harness.Dockerfile, the harness itself as an image (for GitLab CI, Jenkins), built from the packed
// package and checked as a CI job uses it: `serve` on the host, the image's `run --profile` against it over
// the host network, reports in a mounted folder; then the image's `run --image` of the reference image with
// the engine's socket mounted. Skipped (with the reason) unless AC_DOCKER_TESTS=1 and
// AC_DOCKERFILE_TEST=1, which .ci/run sets when it runs as root with debootstrap installed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport, runProcess } from './support/cli.js';
import { DOCKER_ENABLED, DOCKER_SKIP_REASON } from './support/images.js';
import { skipUnless } from '../support/capabilities.js';

/** debootstrap, the npm install in the build, then a full run: about 4.5 min on this 2-core machine. */
const HARNESS_IMAGE_MS = 600_000;
let work = '';

beforeAll(async () => {
  if (DOCKER_ENABLED) work = await mkdtemp(join(tmpdir(), 'ac-harness-image-test-'));
});

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('docker/harness.Dockerfile (the harness as an image)', () => {
  it('runs `run --profile` against a serve on the host and writes its reports to the mounted folder', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    skipUnless(
      ctx,
      'debootstrap',
      process.env.AC_DOCKERFILE_TEST === '1',
      'AC_DOCKERFILE_TEST is not 1: .ci/run sets it when it runs as root with debootstrap installed, which docker/check-harness-image.sh needs',
    );
    const out = join(work, 'reports');
    const result = await runProcess('bash', [resolve('docker/check-harness-image.sh'), out], HARNESS_IMAGE_MS, { processGroup: true });
    expect(result.code, `${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(result.stdout).toMatch(/check-harness-image: built access-conformance:[\d.]+-harness-\w+ in \d+ s/);
    const report = await readReport(out);
    expect(report.totals).toMatchObject({ failed: 0, errored: 0, skipped: 0 });
    expect(report.totals.passed).toBeGreaterThan(0);
    // The image checked the host's serve, not an embedded reference of its own.
    expect(report.target.description ?? '').not.toContain('embedded');
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toContain('<testsuites');
    // Then `run --image` from inside the image, with the engine's socket mounted: the reference image.
    expect(result.stdout).toMatch(/check-harness-image: run --image in the image exited 0/);
    const fromImage = await readReport(join(out, 'image'));
    expect(fromImage.totals).toMatchObject({ failed: 0, errored: 0, skipped: 0 });
    expect(fromImage.totals.passed).toBeGreaterThan(0);
    expect(fromImage.target.description ?? '').toContain('access-conformance-reference');
    // Only this test's image: docker.test.ts and dockerfile.test.ts run beside it with containers of their own.
    // docker/check-harness-image.sh labels its container so that this check sees it alone.
    const left = await runProcess('docker', ['ps', '-aq', '--filter', 'label=access-conformance.harness-image-check'], 30_000);
    expect(left.code).toBe(0);
    expect(left.stdout.trim()).toBe('');
  }, HARNESS_IMAGE_MS + 30_000);
});
