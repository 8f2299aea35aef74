/**
 * Runs suite files through vitest's Node API and turns each finished test case into a raw check outcome.
 * vitest stays behind this module: the rest of the engine sees groups and checks, never tasks.
 */
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import type { createVitest, Reporter, TestCase, TestModule } from 'vitest/node';
import type { RunSink } from './check-meta.js';
import type { SuiteRunner } from './suite-runner.js';
import { errorLine } from '../errors.js';
import { packageRoot } from '../package.js';
import { idFromTitle, testNamePattern } from './selection.js';
import type { SuiteForm } from './suite-files.js';
import { closeSuiteThreads, discardSuiteThreads, suitePool } from './suite-pool.js';
import { debugLine } from '../debug.js';
import { untilStopped } from '../stop/race.js';
import { Stopped } from '../stop/reason.js';
import { stopMs } from '../stop/timings.js';
import { within } from '../stop/within.js';

/** Tests vitest runs at once: all of them (the suites bound the checks in flight themselves). */
const VITEST_TESTS_AT_ONCE = Number.MAX_SAFE_INTEGER;

export type { RawCheckOutcome, RunSink } from './check-meta.js';
export type { SuiteRunner, SuiteRunRequest } from './suite-runner.js';


function errorCode(error: { [key: string]: unknown }): unknown {
  return error.code;
}

const NO_SINK: RunSink = { checkStarted: () => undefined, check: () => undefined, runFailed: () => undefined };

/**
 * The bridge: a vitest reporter that forwards to the engine's sink. One vitest instance runs target after
 * target (the fault runner's session): reset() points it at the next run's IDs and sink.
 */
export class BridgeReporter implements Reporter {
  /** Unhandled errors of the run (outside any test). */
  unhandled: string[] = [];
  private ids: ReadonlySet<string> = new Set();
  private sink: RunSink = NO_SINK;

  reset(ids: ReadonlySet<string>, sink: RunSink): void {
    this.ids = ids;
    this.sink = sink;
    this.unhandled = [];
  }

  onTestModuleCollected(testModule: TestModule): void {
    debugLine('engine', `collected ${testModule.relativeModuleId}`);
  }

  onTestCaseReady(testCase: TestCase): void {
    const id = idFromTitle(testCase.name, this.ids);
    if (id !== undefined) this.sink.checkStarted(id);
  }

  onTestCaseResult(testCase: TestCase): void {
    const id = idFromTitle(testCase.name, this.ids);
    // Titles outside this run's selection were filtered by testNamePattern: not part of the run.
    if (id === undefined) return;
    const result = testCase.result();
    if (result.state === 'pending') return;
    const meta = testCase.meta().check;
    const errors = (result.errors ?? []).map((error) => ({ name: error.name, message: error.message, code: errorCode(error) }));
    this.sink.check({
      id,
      state: result.state,
      meta,
      note: result.state === 'skipped' ? result.note : undefined,
      errors,
      durationMs: meta?.durationMs ?? Math.round(testCase.diagnostic()?.duration ?? 0),
    });
  }

  onTestModuleEnd(testModule: TestModule): void {
    // Its errors are reported once, with the run's end (onTestRunEnd).
    debugLine('engine', `end ${testModule.relativeModuleId}`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message: string; name?: string }>): void {
    const unhandled = unhandledErrors.map(errorLine);
    this.unhandled.push(...unhandled);
    // A test file that failed while collecting may never report its end, and a thread that crashed (out of
    // memory) reports only an unhandled error: either way the checks that never reported are errored with
    // the reason, never "not implemented" (which reads as skipped). Groups already ended are left as they are.
    this.sink.runFailed([...testModules.flatMap((testModule) => testModule.errors().map(errorLine)), ...unhandled]);
  }
}

export interface SuiteVitestSettings {
  root: string;
  /** The run's one test file (suites/support/run-entry), absolute path. */
  entry: string;
  /** compiled: dist/suites/*.js imported by Node; source: suites/*.ts through vite's module runner. */
  form: SuiteForm;
  reporter: Reporter;
  /** Bound of the hooks (the clock-moving checks wait in one for stray check bodies). */
  testTimeoutMs: number;
}

type VitestOptions = Parameters<typeof createVitest>[1];
type ViteOverrides = NonNullable<Parameters<typeof createVitest>[2]>;

/** How the suites run under vitest, for the engine's runs and the fault runner's session alike. */
export function suiteVitestOptions(settings: SuiteVitestSettings): [VitestOptions, ViteOverrides] {
  return [
    {
      config: false,
      root: settings.root,
      include: [relative(settings.root, settings.entry).split('\\').join('/')],
      // vitest's default excludes dist/; the include list is exactly the entry, nothing else.
      exclude: [],
      watch: false,
      reporters: [settings.reporter],
      // One thread, not forked processes: the suites share nothing with the CLI process that isolation would
      // protect, and a thread starts in a fraction of a process's time and memory. suite-pool.ts keeps it for
      // the next run of the same process (the fault runner's session runs hundreds).
      pool: suitePool,
      maxWorkers: 1,
      // vitest starts every test at once and times none: the suites hand out the run's --concurrency slots
      // (checks that mostly wait first, then the next check of each group that runs one at a time), and a
      // check's time limit starts when it has one (suites/support/check-slots.ts). vitest's own bound is one
      // first-come queue, behind which such a group waited for every other check once per check. (vitest
      // reads this once per thread.)
      maxConcurrency: VITEST_TESTS_AT_ONCE,
      testTimeout: 0,
      hookTimeout: settings.testTimeoutMs,
      passWithNoTests: true,
      silent: true,
      // The suites never print; any console noise from a dependency must not interleave with progress.
      onConsoleLog: () => false,
      includeTaskLocation: false,
      // The suites share the worker's module graph, run after run: the client, crypto and faker load once per
      // worker (each run gets its own TargetClient through suiteClient()).
      isolate: false,
      coverage: { enabled: false },
      // Compiled suites are plain ES modules: Node imports them (and the package's compiled src/) itself,
      // with no vite transform, no module-runner RPC to the main thread and no vi.mock hoisting (the suites
      // use none).
      ...(settings.form === 'compiled' ? { experimental: { viteModuleRunner: false, nodeLoader: false } } : {}),
    },
    {
      // A global install may be read-only: vite's cache goes to the temp folder.
      cacheDir: join(tmpdir(), 'access-conformance-vite'),
      logLevel: 'silent',
      clearScreen: false,
      server: { watch: null },
    },
  ];
}

export type SuiteVitest = Awaited<ReturnType<typeof createVitest>>;

let vitestNode: Promise<typeof import('vitest/node')> | undefined;

/** vitest/node (and vite with it), loaded once per process, on first use: `list`, `diff` and `serve` never need it. */
function loadVitest(): Promise<typeof import('vitest/node')> {
  vitestNode ??= import('vitest/node');
  return vitestNode;
}

export interface SuiteRunnerSettings {
  /** The run's one test file (discoverSuites().entry). */
  entry: string;
  form: SuiteForm;
  testTimeoutMs: number;
}

/** Creates vitest once; its instance (and its worker thread) serves every run that follows. */
export async function openSuiteRunner(settings: SuiteRunnerSettings): Promise<SuiteRunner> {
  const root = packageRoot();
  const reporter = new BridgeReporter();
  const savedExitCode = process.exitCode;
  const { createVitest } = await loadVitest();
  const [options, viteOverrides] = suiteVitestOptions({ root, entry: settings.entry, form: settings.form, reporter, testTimeoutMs: settings.testTimeoutMs });
  const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const vitest = await createVitest('test', options, viteOverrides);
  // vitest's logger ends the process 1 ms after SIGINT/SIGTERM; the CLI's own handler must decide instead
  // (stop the run, write the reports, then exit 130/143).
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(name)) if (!signalListeners[name].includes(listener)) process.off(name, listener);
  }
  let stopped = false;
  debugLine('engine', `vitest created (${settings.form} suites)`);
  return {
    async run(request, sink) {
      debugLine('engine', `run: ${request.suites.length} suites, ${request.ids.length} checks`);
      reporter.reset(new Set(request.ids), sink);
      vitest.provide('acRun', request.context);
      vitest.provide('acSuites', request.suites);
      vitest.setGlobalTestNamePattern(testNamePattern(request.ids));
      try {
        if (request.suites.length > 0 && !request.signal?.aborted && (await runUnlessStopped(vitest.runTestFiles([settings.entry]), request.signal))) {
          // A stopped run does not wait for the checks in flight (a hung target holds each for its timeout).
          debugLine('engine', 'run stopped');
          stopped = true;
          // Its checks may still wait on a hung target: the thread is ended when vitest stops it, not kept.
          discardSuiteThreads();
          await vitest.cancelCurrentRun('keyboard-input').catch(() => {});
        }
      } finally {
        // vitest marks failed tests on the process; the verdict is the engine's, not vitest's.
        process.exitCode = savedExitCode;
      }
      debugLine('engine', 'run finished');
      return { unhandled: [...reporter.unhandled] };
    },
    async close() {
      const closed = vitest.close();
      if (stopped) {
        await within(closed, stopMs('suiteClose'), () => undefined, { hold: false });
      } else {
        await closed;
      }
      // Ends the parked thread, and any thread a stopped run left running (it may still wait on a hung target).
      await closeSuiteThreads();
      process.exitCode = savedExitCode;
      debugLine('engine', 'vitest closed');
    },
  };
}

/** Waits for `run`, or for `signal` to abort first; true when it was stopped (before or after `run` ended). */
async function runUnlessStopped(run: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await untilStopped(run, signal);
  } catch (error) {
    if (error instanceof Stopped) return true;
    throw error;
  }
  return signal?.aborted ?? false;
}
