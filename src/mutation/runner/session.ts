/**
 * A suite session: one vitest instance that runs the conformance suites against one target after another.
 * `run` does what the engine's runConformance does for one target (preflight, the profile's JWKS servers,
 * the main phase in parallel, then the clock-moving checks alone, file by file) with the engine's own
 * collector and result mapping, but vitest, its workers and its transformed modules are created once and
 * reused, which is most of the cost of a short run. Self-verification runs dozens of faults this way.
 */
import { startProfileJwksServers } from '../../client/index.js';
import type { RunContext } from '../../engine/check-meta.js';
import { PhaseCollector } from '../../engine/collector.js';
import { Emitter } from '../../engine/emitter.js';
import { packageRoot } from '../../package.js';
import { preflight } from '../../engine/preflight.js';
import { CHECK_TIMEOUT_FACTOR } from '../../engine/run-conformance.js';
import { resolveSelection, testNamePattern } from '../../engine/selection.js';
import type { CheckResult, Phase } from '../../engine/types.js';
import { BridgeReporter, createSuiteVitest, discoverSuites } from '../../engine/vitest-bridge.js';
import type { ResolvedProfile } from '../../profile/types.js';

export interface SessionOptions {
  /** Suite files run in parallel in the main phase (vitest workers). */
  workers: number;
  /** Per-request timeout, as `run --timeout`. */
  timeoutMs: number;
}

export interface SessionRun {
  results: CheckResult[];
  /** Errors outside any check (a module that failed to load, an unhandled rejection). */
  harnessErrors: string[];
  capabilities: RunContext['capabilities'];
}

export interface SuiteSession {
  run(profile: ResolvedProfile, ids: readonly string[], seed: string): Promise<SessionRun>;
  close(): Promise<void>;
}

export async function createSuiteSession(options: SessionOptions): Promise<SuiteSession> {
  const root = packageRoot();
  const suites = discoverSuites(root);
  const suiteGroups = new Set(suites.keys());
  // Its first phase resets it before any test runs.
  const reporter = new BridgeReporter(new Set(), { moduleStart: () => undefined, check: () => undefined, moduleEnd: () => undefined });
  const savedExitCode = process.exitCode;
  const vitest = await createSuiteVitest({
    root,
    files: [...suites.values()],
    reporter,
    maxWorkers: options.workers,
    testTimeoutMs: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
  });

  const phase = async (name: Phase, requirements: ReturnType<typeof resolveSelection>['requirements'], results: Map<string, CheckResult>, context: RunContext, sequential: boolean): Promise<void> => {
    if (requirements.length === 0) return;
    const collector = new PhaseCollector(name, requirements, results, new Emitter([]), suiteGroups);
    const files = collector.runnableGroups().map((group) => suites.get(group)!);
    reporter.reset(new Set(collector.ids()), collector);
    vitest.provide('acRun', context);
    vitest.setGlobalTestNamePattern(testNamePattern(collector.ids()));
    // The clock phase: one file at a time, so two checks never move the clock under each other.
    for (const batch of sequential ? files.map((file) => [file]) : [files]) await vitest.runTestFiles(batch);
    collector.finishAll();
  };

  return {
    async run(profile, ids, seed) {
      const { requirements } = resolveSelection({ only: [...ids], skip: [] });
      const { capabilities } = await preflight(profile, options.timeoutMs);
      const results = new Map<string, CheckResult>();
      reporter.unhandled = [];
      const jwks = await startProfileJwksServers(profile);
      const context: RunContext = { profile, client: { timeoutMs: options.timeoutMs }, seed, capabilities, ...(jwks.control ? { jwksControl: jwks.control } : {}) };
      try {
        await phase('main', requirements.filter((req) => !req.movesClock), results, context, false);
        await phase('clock', requirements.filter((req) => req.movesClock), results, context, true);
      } finally {
        await jwks.close();
        process.exitCode = savedExitCode;
      }
      const ordered = requirements.map((req) => results.get(req.id)).filter((result): result is CheckResult => result !== undefined);
      return { results: ordered, harnessErrors: [...reporter.unhandled], capabilities };
    },
    async close() {
      await vitest.close();
      process.exitCode = savedExitCode;
    },
  };
}
