import { configDefaults, defineConfig } from 'vitest/config';

// The project's own tests (unit, integration, end to end). The conformance suites under suites/ are not
// collected here; the engine runs them against a target, and tests/ drive that engine.
//
// Two lanes, as vitest projects:
// - `fast` (`npm run test:fast`): unit and quick integration tests, about a minute;
// - `full` (`npm test`, what .ci/run runs): `fast` plus the files below, which spawn the CLI or run the
//   engine end to end, the fault self-verification, container images and timed load runs.
// A new slow file joins the full lane by its name (`*.e2e.test.ts`) or by an entry here.
const FULL_LANE_ONLY = [
  'tests/**/*.e2e.test.ts',
  'tests/mutation/self-verification.test.ts',
  'tests/hostile/**/*.test.ts',
  'tests/reporters/cli-reports.test.ts',
  'tests/sdk/**/*.test.ts',
  'tests/cli/send.test.ts',
  'tests/tenant/tls.test.ts',
  'tests/action/**/*.test.ts',
  'tests/containers/**/*.test.ts',
  'tests/cli/run.test.ts',
  'tests/cli/run-errors.test.ts',
  'tests/cli/diff-list.test.ts',
  'tests/engine/jwks-listen-host.test.ts',
  'tests/load/cli.test.ts',
  'tests/load/driver.test.ts',
  'tests/reference/fuzz.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FULL_LANE_ONLY] } },
      { extends: true, test: { name: 'slow', include: FULL_LANE_ONLY } },
    ],
  },
});
