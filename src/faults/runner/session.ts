/**
 * A suite session: one vitest instance that runs the conformance suites against one target after another.
 * `run` does what the engine's runConformance does for one target (preflight, the profile's JWKS servers,
 * the main phase in parallel, then the clock-moving checks alone, file by file) with the engine's own
 * collector and result mapping, but vitest, its workers and its transformed modules are created once and
 * reused, which is most of the cost of a short run. Self-verification runs dozens of faults this way.
 */
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { createVitest, type Reporter, type TestCase, type TestModule, type Vitest } from 'vitest/node';
import { startProfileJwksServers } from '../../client/index.js';
import type { RunContext } from '../../engine/check-meta.js';
import { PhaseCollector } from '../../engine/collector.js';
import { Emitter } from '../../engine/emitter.js';
import { packageRoot } from '../../engine/package-root.js';
import { preflight } from '../../engine/preflight.js';
import { CHECK_TIMEOUT_FACTOR } from '../../engine/run-conformance.js';
import { resolveSelection, testNamePattern } from '../../engine/selection.js';
import type { CheckResult, Phase } from '../../engine/types.js';
import { discoverSuites, groupOfModule, type PhaseSink } from '../../engine/vitest-bridge.js';
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

/** The engine's vitest reporter, reduced to what a collector needs; the sink changes per phase. */
class SessionReporter implements Reporter {
  sink: PhaseSink | undefined;
  ids: ReadonlySet<string> = new Set();
  unhandled: string[] = [];
  private ended = new Set<string>();

  reset(sink: PhaseSink, ids: ReadonlySet<string>): void {
    this.sink = sink;
    this.ids = ids;
    this.ended = new Set();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.sink?.moduleStart(groupOfModule(testModule.moduleId));
  }

  onTestCaseResult(testCase: TestCase): void {
    const id = testCase.name.split(' ', 1)[0] ?? '';
    if (!this.ids.has(id)) return;
    const result = testCase.result();
    if (result.state === 'pending') return;
    this.sink?.check(groupOfModule(testCase.module.moduleId), {
      id,
      state: result.state,
      meta: testCase.meta().check,
      note: result.state === 'skipped' ? result.note : undefined,
      errors: (result.errors ?? []).map((error) => ({ name: error.name, message: error.message, code: (error as { code?: unknown }).code })),
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const group = groupOfModule(testModule.moduleId);
    if (this.ended.has(group)) return;
    this.ended.add(group);
    this.sink?.moduleEnd(group, testModule.errors().map((error) => `${error.name ?? 'Error'}: ${error.message}`));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message: string; name?: string }>): void {
    for (const error of unhandledErrors) this.unhandled.push(`${error.name ?? 'Error'}: ${error.message}`);
    for (const testModule of testModules) this.onTestModuleEnd(testModule);
  }
}

export async function createSuiteSession(options: SessionOptions): Promise<SuiteSession> {
  const root = packageRoot();
  const suites = discoverSuites(root);
  const suiteGroups = new Set(suites.keys());
  const reporter = new SessionReporter();
  const savedExitCode = process.exitCode;
  const vitest: Vitest = await createVitest(
    'test',
    {
      config: false,
      root,
      include: [...suites.values()].map((file) => relative(root, file).split('\\').join('/')),
      watch: false,
      reporters: [reporter],
      pool: 'threads',
      maxWorkers: Math.max(1, options.workers),
      testTimeout: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
      hookTimeout: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
      passWithNoTests: true,
      silent: true,
      onConsoleLog: () => false,
      includeTaskLocation: false,
      isolate: false,
      coverage: { enabled: false },
    },
    { cacheDir: join(tmpdir(), 'access-conformance-vite'), logLevel: 'silent', clearScreen: false, server: { watch: null } },
  );

  const phase = async (name: Phase, requirements: ReturnType<typeof resolveSelection>['requirements'], results: Map<string, CheckResult>, context: RunContext, sequential: boolean): Promise<void> => {
    if (requirements.length === 0) return;
    const collector = new PhaseCollector(name, requirements, results, new Emitter([]), suiteGroups);
    const files = collector.runnableGroups().map((group) => suites.get(group)!);
    reporter.reset(collector, new Set(collector.ids()));
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
      const context: RunContext = { profile, client: { timeoutMs: options.timeoutMs }, seed, capabilities };
      const results = new Map<string, CheckResult>();
      reporter.unhandled = [];
      const jwks = await startProfileJwksServers(profile);
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
