/**
 * Runs suite files through vitest's Node API and turns each finished test case into a raw check outcome.
 * vitest stays behind this module: the rest of the engine sees groups and checks, never tasks.
 */
import { join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import type { createVitest, Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckMeta, RunContext } from './check-meta.js';
import { packageRoot } from '../package.js';
import { idFromTitle, testNamePattern } from './selection.js';
import { discoverSuites, groupOfModule, type SuiteForm } from './suite-files.js';
import { suitePool } from './suite-pool.js';

/** What one finished test case said, before the engine maps it onto the catalogue. */
export interface RawCheckOutcome {
  id: string;
  state: 'passed' | 'failed' | 'skipped';
  meta?: CheckMeta;
  /** vitest's skip note. */
  note?: string;
  errors: Array<{ name?: string; message: string; code?: unknown }>;
  durationMs: number;
}

export interface PhaseSink {
  moduleStart(group: string): void;
  check(group: string, outcome: RawCheckOutcome): void;
  /** `errors`: why the module itself failed (import error, failing hook), already messages. */
  moduleEnd(group: string, errors: string[]): void;
}

export interface PhaseRequest {
  /** IDs to run in this phase; only these test titles run. */
  ids: string[];
  /** Suite files to load (absolute paths, among the runner's files). */
  files: string[];
  /** false: one file at a time (the clock phase), so two files never move the clock under each other. */
  fileParallelism: boolean;
  context: RunContext;
  /** Stops the phase: vitest cancels, its workers are ended within a bound, whatever they were waiting for. */
  signal?: AbortSignal;
}

/** How long a stopped phase may take to close vitest before the engine goes on without it. */
const STOP_CLOSE_MS = 5_000;

export { discoverSuites, groupOfModule };

function errorCode(error: { [key: string]: unknown }): unknown {
  return error.code;
}

/**
 * The bridge: a vitest reporter that forwards to the engine's sink. One vitest instance may run several
 * phases (the fault runner's session reuses one): reset() points it at the next phase's IDs and sink.
 */
export class BridgeReporter implements Reporter {
  /** Unhandled errors of the run (outside any test). */
  unhandled: string[] = [];
  private ended = new Set<string>();

  constructor(
    private ids: ReadonlySet<string>,
    private sink: PhaseSink,
  ) {}

  reset(ids: ReadonlySet<string>, sink: PhaseSink): void {
    this.ids = ids;
    this.sink = sink;
    this.ended = new Set();
  }

  onTestModuleQueued(testModule: TestModule): void {
    debug(`queued ${testModule.relativeModuleId}`);
  }

  onTestModuleCollected(testModule: TestModule): void {
    debug(`collected ${testModule.relativeModuleId}`);
  }

  onTestModuleStart(testModule: TestModule): void {
    debug(`start ${testModule.relativeModuleId}`);
    this.sink.moduleStart(groupOfModule(testModule.moduleId));
  }

  onTestCaseResult(testCase: TestCase): void {
    const id = idFromTitle(testCase.name, this.ids);
    // Titles outside this phase's selection were filtered by testNamePattern: not part of the run.
    if (id === undefined) return;
    const result = testCase.result();
    if (result.state === 'pending') return;
    const meta = testCase.meta().check;
    const errors = (result.errors ?? []).map((error) => ({ name: error.name, message: error.message, code: errorCode(error) }));
    this.sink.check(groupOfModule(testCase.module.moduleId), {
      id,
      state: result.state,
      meta,
      note: result.state === 'skipped' ? result.note : undefined,
      errors,
      durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const group = groupOfModule(testModule.moduleId);
    if (this.ended.has(group)) return;
    this.ended.add(group);
    debug(`end ${testModule.relativeModuleId}`);
    this.sink.moduleEnd(group, testModule.errors().map((error) => `${error.name ?? 'Error'}: ${error.message}`));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message: string; name?: string }>): void {
    for (const error of unhandledErrors) this.unhandled.push(`${error.name ?? 'Error'}: ${error.message}`);
    // A module that never reported its end (failed while collecting) still closes its group.
    for (const testModule of testModules) this.onTestModuleEnd(testModule);
  }
}

const DEBUG = process.env.DEBUG?.includes('access-conformance') ?? false;

function debug(line: string): void {
  if (DEBUG) process.stderr.write(`[engine ${new Date().toISOString().slice(11, 23)}] ${line}\n`);
}

export interface SuiteVitestSettings {
  root: string;
  /** Suite files (absolute paths). */
  files: readonly string[];
  /** compiled: dist/suites/*.js imported by Node; source: suites/*.ts through vite's module runner. */
  form: SuiteForm;
  reporter: Reporter;
  maxWorkers: number;
  /** Checks of one concurrent describe block in flight at once (per worker). */
  maxConcurrency: number;
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
      include: settings.files.map((file) => relative(settings.root, file).split('\\').join('/')),
      // vitest's default excludes dist/; the include list is exactly the suite files chosen, nothing else.
      exclude: [],
      watch: false,
      reporters: [settings.reporter],
      // Threads, not forked processes: the suites share nothing with the CLI process that isolation would
      // protect, and a thread starts in a fraction of a process's time and memory (suite-pool.ts: vitest's
      // thread worker with a small young generation).
      pool: suitePool,
      maxWorkers: Math.max(1, settings.maxWorkers),
      maxConcurrency: Math.max(1, settings.maxConcurrency),
      testTimeout: settings.testTimeoutMs,
      hookTimeout: settings.testTimeoutMs,
      passWithNoTests: true,
      silent: true,
      // The suites never print; any console noise from a dependency must not interleave with progress.
      onConsoleLog: () => false,
      includeTaskLocation: false,
      // Suite files share a worker's module graph: the client, crypto and faker load once per worker, not
      // once per file (each file still gets its own TargetClient through suiteClient()).
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

/**
 * Starts loading vitest now, so that it loads while the caller waits on something else (the embedded
 * sandbox generating its keys in libuv's thread pool); openSuiteRunner then finds it loaded.
 */
export function preloadVitest(): void {
  // A failure shows again, with its cause, when openSuiteRunner loads it.
  loadVitest().catch(() => undefined);
}

export interface SuiteRunnerSettings {
  /** Every suite file any phase may run (absolute paths). */
  files: readonly string[];
  form: SuiteForm;
  maxWorkers: number;
  maxConcurrency: number;
  testTimeoutMs: number;
}

/** One vitest instance that runs phase after phase (and, in the fault runner, target after target). */
export interface SuiteRunner {
  runPhase(request: PhaseRequest, sink: PhaseSink): Promise<{ unhandled: string[] }>;
  close(): Promise<void>;
}

/** Creates vitest once; its instance serves every phase that follows. */
export async function openSuiteRunner(settings: SuiteRunnerSettings): Promise<SuiteRunner> {
  const root = packageRoot();
  const reporter = new BridgeReporter(new Set(), { moduleStart: () => undefined, check: () => undefined, moduleEnd: () => undefined });
  const savedExitCode = process.exitCode;
  const { createVitest } = await loadVitest();
  const maxWorkers = Math.max(1, settings.maxWorkers);
  const [options, viteOverrides] = suiteVitestOptions({ root, files: settings.files, form: settings.form, reporter, maxWorkers, maxConcurrency: settings.maxConcurrency, testTimeoutMs: settings.testTimeoutMs });
  const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const vitest = await createVitest('test', options, viteOverrides);
  // vitest's logger ends the process 1 ms after SIGINT/SIGTERM; the CLI's own handler must decide instead
  // (stop the run, write the reports, then exit 130/143).
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(name)) if (!signalListeners[name].includes(listener)) process.off(name, listener);
  }
  let stopped = false;
  debug(`vitest created (${settings.form} suites, ${maxWorkers} workers, ${settings.maxConcurrency} checks in flight)`);
  return {
    async runPhase(request, sink) {
      debug(`phase: ${request.files.length} files, ${request.ids.length} checks`);
      reporter.reset(new Set(request.ids), sink);
      reporter.unhandled = [];
      vitest.provide('acRun', request.context);
      vitest.setGlobalTestNamePattern(testNamePattern(request.ids));
      try {
        // One worker runs its files one after another anyway: one call keeps that worker (and the modules it
        // loaded) for every file, where one call per file would start a worker per file.
        const together = request.fileParallelism || maxWorkers === 1;
        for (const batch of together ? [request.files] : request.files.map((file) => [file])) {
          if (batch.length === 0) continue;
          if (request.signal?.aborted) break;
          if (await runUnlessStopped(vitest.runTestFiles(batch), request.signal)) {
            // A stopped run does not wait for the checks in flight (a hung target holds each for its timeout).
            debug('phase stopped');
            stopped = true;
            await vitest.cancelCurrentRun('keyboard-input').catch(() => {});
            break;
          }
        }
      } finally {
        // vitest marks failed tests on the process; the verdict is the engine's, not vitest's.
        process.exitCode = savedExitCode;
      }
      debug('phase finished');
      return { unhandled: [...reporter.unhandled] };
    },
    async close() {
      const closed = vitest.close();
      if (stopped) {
        closed.catch(() => {});
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, STOP_CLOSE_MS).unref())]);
      } else {
        await closed;
      }
      process.exitCode = savedExitCode;
      debug('vitest closed');
    },
  };
}

/** Waits for `run`, or for `signal` to abort first; true when it was stopped. */
async function runUnlessStopped(run: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) {
    await run;
    return false;
  }
  run.catch(() => {});
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([run, aborted]);
  if (onAbort) signal.removeEventListener('abort', onAbort);
  return signal.aborted;
}
