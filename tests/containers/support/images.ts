/**
 * Images for the container tests: the reference image (built as `npm run image:reference` does, under a
 * tag of the tests' own so a user's `access-conformance-reference:<version>` is never replaced) and small
 * "bad" images made from it with another entrypoint. Nothing is pulled: `FROM <local image>` only. All five
 * are removed when the tests are done (`removeTestImages`; KEEP_IMAGES=1 keeps them, as the docker/ scripts
 * do): none is a cache worth keeping, the reference is rebuilt from the current dist/ on every run anyway.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from './cli.js';
import { buildImage, buildReferenceImage, listImageTargetContainers, pruneUntaggedImages, referenceImageName, removeImages } from '../../../src/containers/index.js';

/**
 * Set by .ci/run once `docker info` answers (and by a developer who has an engine). Not named
 * ACCESS_CONFORMANCE_*: the CLI reads every such variable as a flag and would refuse an unknown one.
 */
export const DOCKER_ENABLED = process.env.AC_DOCKER_TESTS === '1';
export const DOCKER_SKIP_REASON =
  'container tests need a Docker engine: AC_DOCKER_TESTS is not 1 (.ci/run sets it once `docker info` answers)';

const NODE = '/usr/local/bin/node';

/** Each bad image's entrypoint script, and a line it prints that the error must quote. */
export const BAD_IMAGES = {
  exits: {
    image: 'access-conformance-test-bad:exits',
    marker: 'bad image: cannot reach my database, giving up',
    script: "console.log('bad image: starting'); console.error('bad image: cannot reach my database, giving up'); process.exit(3);",
  },
  silent: {
    image: 'access-conformance-test-bad:silent',
    marker: 'bad image: waiting forever',
    script:
      "console.log('bad image: waiting forever'); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 60000);",
  },
  invalid: {
    image: 'access-conformance-test-bad:invalid',
    marker: 'bad image: wrote my profile',
    script:
      "require('fs').writeFileSync(process.env.CONFORMANCE_PROFILE_OUT, JSON.stringify({ version: 1, baseUrl: 'not a url', credentials: {} }));" +
      " console.log('bad image: wrote my profile'); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 60000);",
  },
} as const;

/** An image whose entrypoint does not exist: the engine creates the container but cannot start it. */
export const NO_EXEC_IMAGE = 'access-conformance-test-bad:noexec';

export type BadImage = keyof typeof BAD_IMAGES;

/**
 * The IDs of our image-target containers still present: those of docker/check-dockerfile.sh's images
 * (`dockerfile: true`; their names hold `-dockerfile-`) or all the others. The two test files run side by
 * side, so each counts only its own as left behind.
 */
export async function leftoverContainers(dockerfile: boolean): Promise<string[]> {
  return (await listImageTargetContainers()).filter((container) => container.image.includes('-dockerfile-') === dockerfile).map((container) => container.id);
}

/** The reference image as the container tests build it: the reference's repository, a tag of their own. */
export const TEST_REFERENCE_IMAGE = `${referenceImageName()}-test`;

/** Every image buildTestImages makes. */
export const TEST_IMAGES: readonly string[] = [TEST_REFERENCE_IMAGE, ...Object.values(BAD_IMAGES).map((bad) => bad.image), NO_EXEC_IMAGE];

/** Builds the reference image from the current dist/, then the bad images on top of it. */
export async function buildTestImages(): Promise<{ reference: string }> {
  const { image: reference } = await buildReferenceImage({ image: TEST_REFERENCE_IMAGE });
  const work = await mkdtemp(join(tmpdir(), 'ac-bad-images-'));
  try {
    for (const bad of Object.values(BAD_IMAGES)) {
      // The entrypoint script is CommonJS (`-e` has no package.json); the exec form is JSON.
      const dockerfile = `FROM ${reference}\nENTRYPOINT ${JSON.stringify([NODE, '-e', bad.script])}\n`;
      await writeFile(join(work, 'Dockerfile'), dockerfile);
      await buildImage({ contextDir: work, files: ['Dockerfile'], tags: [bad.image] });
    }
    await writeFile(join(work, 'Dockerfile'), `FROM ${reference}\nENTRYPOINT ["/no/such/program"]\n`);
    await buildImage({ contextDir: work, files: ['Dockerfile'], tags: [NO_EXEC_IMAGE] });
    // The previous bad images held the previous reference image; both can go now.
    await pruneUntaggedImages();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { reference };
}

/**
 * Removes every image buildTestImages made (bad images first: they stand on the reference), and the
 * untagged layers they leave; returns those of them still present (none, unless the engine refused).
 * KEEP_IMAGES=1 keeps them, for a look after a failure.
 */
export async function removeTestImages(): Promise<string[]> {
  if (process.env.KEEP_IMAGES === '1') return [];
  await removeImages([...TEST_IMAGES].reverse());
  await pruneUntaggedImages();
  const present = await Promise.all(TEST_IMAGES.map(async (image) => ((await imageExists(image)) ? image : undefined)));
  return present.filter((image): image is string => image !== undefined);
}

async function imageExists(image: string): Promise<boolean> {
  const { code } = await runProcess('docker', ['image', 'inspect', '--format', '{{.Id}}', image], 30_000);
  return code === 0;
}

export { referenceImageName };
