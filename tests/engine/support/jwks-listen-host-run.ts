/**
 * Child process for tests/engine/jwks-listen-host.test.ts (runConformance drives vitest itself, so it runs
 * outside the test's own vitest). Stands in for a container behind a mapped port: the reference publishes
 * its JWKS URL under host.docker.internal, and fetches it the way a container would, with that name
 * resolving to this machine (here: 127.0.0.1, as the host-gateway entry would make it the docker0 address).
 *
 * argv[2]: the JWKS listen host to pass to runConformance, or "none". Prints one JSON line.
 */
import { runConformance } from '../../../src/engine/index.js';
import { isHarnessError } from '../../../src/errors.js';
import { loadProfile } from '../../../src/profile/index.js';
import { startSandbox } from '../../../src/tenant/index.js';

const GATEWAY_NAME = 'host.docker.internal';
const listenHost = process.argv[2] === 'none' ? undefined : process.argv[2];

const sandbox = await startSandbox({
  seed: 'jwks-listen-host',
  hooks: true,
  jwksHost: GATEWAY_NAME,
  logger: () => undefined,
  customize: {
    deps: (base) => ({ jwksFetcher: (url) => base.jwksFetcher(url.replace(`//${GATEWAY_NAME}:`, '//127.0.0.1:')) }),
  },
});
try {
  const profile = await loadProfile(sandbox.profilePath);
  const summary = await runConformance({
    profile,
    selection: { only: ['WH-JWT-*'], skip: [] },
    seed: 'jwks-listen-host',
    client: { timeoutMs: 5_000 },
    concurrency: 1,
    strict: false,
    reporters: [],
    ...(listenHost === undefined ? {} : { jwksListenHost: listenHost }),
  });
  const states = summary.results.map((result) => result.state);
  process.stdout.write(
    `${JSON.stringify({
      jwksUrl: profile.webhooks.jwt?.serveJwks?.url,
      // A harness error after the run started ends the run with reports; the summary says which.
      ...(summary.aborted ? { error: summary.aborted.code } : {}),
      exitCode: summary.verdict.exitCode,
      passed: states.filter((state) => state === 'passed').length,
      notPassed: summary.results.filter((result) => result.state !== 'passed' && result.state !== 'skipped').map((result) => result.id),
    })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: isHarnessError(error) ? error.code : String(error) })}\n`);
} finally {
  await sandbox.close();
}
