// docker/Dockerfile, the conventional build for users with a registry, built and checked under a real Docker
// engine. Skipped (with the reason) unless AC_DOCKER_TESTS=1 and AC_DOCKERFILE_TEST=1, which .ci/run sets when
// it runs as root with debootstrap installed. Its own file, so that this build (over a minute) runs beside
// the other container tests instead of after them; each file counts only its own containers as left behind.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport, runProcess } from './support/cli.js';
import { DOCKER_ENABLED, DOCKER_SKIP_REASON, leftoverContainers } from './support/images.js';
import { skipUnless } from '../support/capabilities.js';

/** debootstrap, npm ci and tsc in the build, then a full run: about 100 s on a quiet 2-core machine. */
const DOCKERFILE_MS = 600_000;
let work = '';

beforeAll(async () => {
  if (DOCKER_ENABLED) work = await mkdtemp(join(tmpdir(), 'ac-dockerfile-test-'));
});

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('docker/Dockerfile (the conventional build, for users with a registry)', () => {
  // node:24-slim cannot be pulled here: docker/check-dockerfile.sh builds a stand-in (Debian bookworm from
  // debootstrap, Node 24 from the npm registry, this machine's npm, user node), builds the Dockerfile on it,
  // and runs `run --image` on the result.
  it('builds on a stand-in for node:24-slim, and the image it makes is conformant', async (ctx) => {
    skipUnless(ctx, 'docker', DOCKER_ENABLED, DOCKER_SKIP_REASON);
    skipUnless(
      ctx,
      'debootstrap',
      process.env.AC_DOCKERFILE_TEST === '1',
      'AC_DOCKERFILE_TEST is not 1: .ci/run sets it when it runs as root with debootstrap installed, which docker/check-dockerfile.sh needs',
    );
    const out = join(work, 'dockerfile');
    const result = await runProcess('bash', [resolve('docker/check-dockerfile.sh'), out], DOCKERFILE_MS, { processGroup: true });
    expect(result.code, `${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    const report = await readReport(out);
    expect(report.totals).toMatchObject({ failed: 0, errored: 0, skipped: 0 });
    expect(report.totals.passed).toBeGreaterThan(0);
    expect(report.target.description).toContain('-dockerfile-');
    // The stand-in carries the Dockerfile's Node line, not this machine's.
    expect(result.stdout).toMatch(/stand-in for node:24-slim: bookworm minbase \+ node v24\./);
    expect(await leftoverContainers(true)).toEqual([]);
  }, DOCKERFILE_MS + 30_000);
});
