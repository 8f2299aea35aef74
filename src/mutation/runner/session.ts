/**
 * A suite session: one vitest instance, and one worker thread, that run the conformance suites against one
 * target after another. `run` does what the engine's runConformance does for one target (preflight, the
 * profile's JWKS servers, one vitest run: every group at once, then the clock-moving checks alone) with the
 * engine's own collector and result mapping, but vitest, its worker thread and the modules it imported are
 * created once and reused, which is most of the cost of a short run. Self-verification runs hundreds of
 * faults this way.
 */
import { randomUUID } from 'node:crypto';
import { startProfileJwksServers } from '../../client/index.js';
import type { RunContext } from '../../engine/check-meta.js';
import { RunCollector } from '../../engine/collector.js';
import { Emitter } from '../../engine/emitter.js';
import { packageRoot } from '../../package.js';
import { preflight } from '../../engine/preflight.js';
import { CHECK_TIMEOUT_FACTOR } from '../../engine/run-conformance.js';
import { resolveSelection } from '../../engine/selection.js';
import { withControls } from '../../engine/controls.js';
import { discoverSuites, suitesToLoad } from '../../engine/suite-files.js';
import type { CheckResult } from '../../engine/types.js';
import { openSuiteRunner } from '../../engine/vitest-bridge.js';
import type { ResolvedProfile } from '../../profile/types.js';

export interface SessionOptions {
  /** Checks in flight at once (as `run --concurrency`); one suite worker thread. */
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
  const suites = discoverSuites(packageRoot());
  const suiteGroups = new Set(suites.byGroup.keys());
  const runner = await openSuiteRunner({
    entry: suites.entry,
    form: suites.form,
    maxConcurrency: options.checksInFlight,
    testTimeoutMs: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
  });

  return {
    async run(profile, ids, seed) {
      const { requirements } = withControls(resolveSelection({ only: [...ids], skip: [] }).requirements, new Set());
      const { capabilities } = await preflight(profile, options.timeoutMs);
      const results = new Map<string, CheckResult>();
      const collector = new RunCollector(requirements, results, new Emitter([]), suiteGroups);
      const jwks = await startProfileJwksServers(profile);
      const context: RunContext = { runId: randomUUID(), profile, client: { timeoutMs: options.timeoutMs }, seed, capabilities, ...(jwks.control ? { jwksControl: jwks.control } : {}) };
      let unhandled: string[] = [];
      try {
        ({ unhandled } = await runner.run({ ids: collector.ids(), suites: suitesToLoad(suites, collector), context }, collector));
        collector.finishAll();
      } finally {
        await jwks.close();
      }
      const ordered = requirements.map((req) => results.get(req.id)).filter((result): result is CheckResult => result !== undefined);
      return { results: ordered, harnessErrors: unhandled, capabilities };
    },
    async close() {
      await runner.close();
    },
  };
}
