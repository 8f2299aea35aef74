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
import { resolveSelection } from '../../engine/selection.js';
import type { CheckResult, Phase } from '../../engine/types.js';
import { discoverSuites, openSuiteRunner } from '../../engine/vitest-bridge.js';
import type { ResolvedProfile } from '../../profile/types.js';

export interface SessionOptions {
  /** Checks in flight at once in a concurrent suite group (as `run --concurrency`); one suite worker. */
  checksInFlight: number;
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
  const { form, byGroup: suites } = discoverSuites(packageRoot());
  const suiteGroups = new Set(suites.keys());
  const runner = await openSuiteRunner({
    files: [...suites.values()],
    form,
    maxWorkers: 1,
    maxConcurrency: options.checksInFlight,
    testTimeoutMs: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
  });
  let unhandled: string[] = [];

  const phase = async (name: Phase, requirements: ReturnType<typeof resolveSelection>['requirements'], results: Map<string, CheckResult>, context: RunContext, parallel: boolean): Promise<void> => {
    if (requirements.length === 0) return;
    const collector = new PhaseCollector(name, requirements, results, new Emitter([]), suiteGroups);
    const files = collector.runnableGroups().map((group) => suites.get(group)!);
    const phaseRun = await runner.runPhase({ ids: collector.ids(), files, fileParallelism: parallel, context }, collector);
    unhandled.push(...phaseRun.unhandled);
    collector.finishAll();
  };

  return {
    async run(profile, ids, seed) {
      const { requirements } = resolveSelection({ only: [...ids], skip: [] });
      const { capabilities } = await preflight(profile, options.timeoutMs);
      const results = new Map<string, CheckResult>();
      unhandled = [];
      const jwks = await startProfileJwksServers(profile);
      const context: RunContext = { profile, client: { timeoutMs: options.timeoutMs }, seed, capabilities, ...(jwks.control ? { jwksControl: jwks.control } : {}) };
      try {
        await phase('main', requirements.filter((req) => !req.movesClock), results, context, true);
        await phase('clock', requirements.filter((req) => req.movesClock), results, context, false);
      } finally {
        await jwks.close();
      }
      const ordered = requirements.map((req) => results.get(req.id)).filter((result): result is CheckResult => result !== undefined);
      return { results: ordered, harnessErrors: [...unhandled], capabilities };
    },
    async close() {
      await runner.close();
    },
  };
}
