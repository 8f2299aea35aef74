import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import JUnitWithSkipReasons from './tests/support/junit-skips.js';
import SkipSummary from './tests/support/skip-summary.js';

// The project's own tests (unit, integration, end to end). The conformance suites under suites/ are not
// collected here; the engine runs them against a target, and tests/ drive that engine.
//
// Two lanes, as vitest projects:
// - `fast` (`npm run test:fast`): unit and quick integration tests, well under a minute;
// - the full lane (`npm test`, what .ci/run runs): `fast`, `slow` (the files below: they spawn the CLI or
//   run the engine end to end, the fault self-verification, container images) and `timing`.
// A new slow file joins the full lane by its name (`*.e2e.test.ts`) or by an entry here.
//
// Most of the slow files wait (on a hung target, a container, a fault's runs settling) more than they
// compute, so `fast` and `slow` share FILE_WORKERS processes on this 2-core machine. The `timing` files
// measure rates and latencies against the clock: they run last, alone, with the machine to themselves.
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
  'tests/reference/fuzz.test.ts',
];
const TIMING = ['tests/load/driver.test.ts'];
// The k6 lane (`npm run test:k6`; part of `npm test`): the scripts in load/ under a real k6 against `serve`.
// It runs beside the other files on purpose: its thresholds must hold on a busy machine. Its k6 is the
// user's own (K6_BIN, else PATH); without one it skips, saying so (tests/load/support/k6-bin.ts).
const K6_LANE = ['tests/load/k6-lane.test.ts', 'tests/load/k6-segments.test.ts'];
const FILE_WORKERS = 3;

/**
 * The longest files, longest first. vitest orders files by the durations it cached on earlier runs, and CI
 * runs a fresh clone with no cache: without this, the container images (about two minutes, mostly
 * waiting on Docker) could start last and hold the whole lane.
 */
const LONGEST_FIRST = [
  'tests/docs/shell-blocks.e2e.test.ts',
  'tests/containers/harness-image.test.ts',
  'tests/containers/dockerfile.test.ts',
  'tests/mutation/self-verification.test.ts',
  'tests/cli/seed-bodies.e2e.test.ts',
  'tests/containers/docker.test.ts',
  'tests/hostile/deadlines.test.ts',
  'tests/hostile/serve-timeouts.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const index = LONGEST_FIRST.findIndex((path) => file.moduleId.replaceAll('\\', '/').endsWith(path));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Every skip is listed with its reason at the end of the run (tests/support/skip-summary.ts); with
// AC_JUNIT_FILE (.ci/run sets it) a JUnit file is written too, each skip's reason in <skipped message=…>.
const junitFile = process.env.AC_JUNIT_FILE;

export default defineConfig({
  test: {
    reporters: ['default', new SkipSummary(), ...(junitFile ? [new JUnitWithSkipReasons({ outputFile: junitFile })] : [])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...FULL_LANE_ONLY, ...TIMING, ...K6_LANE], maxWorkers: FILE_WORKERS, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'slow', include: FULL_LANE_ONLY, maxWorkers: FILE_WORKERS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'k6', include: K6_LANE, maxWorkers: 1, testTimeout: 180_000, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timing', include: TIMING, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
