/**
 * Runs suite files through vitest's Node API and turns each finished test case into a raw check outcome.
 * vitest stays behind this module: the rest of the engine sees groups and checks, never tasks.
 */
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import type { createVitest, Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckMeta, RunContext } from './check-meta.js';
import { packageRoot } from '../package.js';
import { idFromTitle, testNamePattern } from './selection.js';

const SUITE_SUFFIX = '.suite.ts';

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
  /** Suite files to load (absolute paths). */
  files: string[];
  maxWorkers: number;
  fileParallelism: boolean;
  testTimeoutMs: number;
  context: RunContext;
  /** Stops the phase: vitest cancels, its workers are ended within a bound, whatever they were waiting for. */
  signal?: AbortSignal;
}

/** How long a stopped phase may take to close vitest before the engine goes on without it. */
const STOP_CLOSE_MS = 5_000;

/** Suite files by group (file name without `.suite.ts`), searched under <root>/suites. */
export function discoverSuites(root = packageRoot()): Map<string, string> {
  const found = new Map<string, string>();
  const dir = join(root, 'suites');
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }).map(String);
  } catch {
    return found;
  }
  for (const entry of entries.sort()) {
    if (!entry.endsWith(SUITE_SUFFIX) || entry.split(/[\\/]/).includes('node_modules')) continue;
    const group = basename(entry).slice(0, -SUITE_SUFFIX.length);
    if (!found.has(group)) found.set(group, join(dir, entry));
  }
  return found;
}

export function groupOfModule(moduleId: string): string {
  const name = basename(moduleId);
  return name.endsWith(SUITE_SUFFIX) ? name.slice(0, -SUITE_SUFFIX.length) : name;
}

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
  reporter: Reporter;
  maxWorkers: number;
  testTimeoutMs: number;
}

type VitestOptions = Parameters<typeof createVitest>[1];
type ViteOverrides = NonNullable<Parameters<typeof createVitest>[2]>;

/** How the suites run under vitest, for the engine's phases and the fault runner's session alike. */
export function suiteVitestOptions(settings: SuiteVitestSettings): [VitestOptions, ViteOverrides] {
  return [
    {
      config: false,
      root: settings.root,
      include: settings.files.map((file) => relative(settings.root, file).split('\\').join('/')),
      watch: false,
      reporters: [settings.reporter],
      pool: 'threads',
      maxWorkers: Math.max(1, settings.maxWorkers),
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

/**
 * A vitest instance for the suites that the caller drives phase by phase (the fault runner's session):
 * created here so that vitest stays the engine's import, loaded on first use like runPhase's.
 */
export async function createSuiteVitest(settings: SuiteVitestSettings): Promise<SuiteVitest> {
  const { createVitest: create } = await import('vitest/node');
  const [options, viteOverrides] = suiteVitestOptions(settings);
  return create('test', options, viteOverrides);
}

/** Runs one phase; resolves with unhandled errors (strings) once every module ended. */
export async function runPhase(request: PhaseRequest, sink: PhaseSink): Promise<{ unhandled: string[] }> {
  const root = packageRoot();
  debug(`phase: ${request.files.length} files, ${request.ids.length} checks, ${request.maxWorkers} workers`);
  const bridge = new BridgeReporter(new Set(request.ids), sink);
  const savedExitCode = process.exitCode;
  // Loaded on first use: vitest/node brings vite, which `list`, `diff` and `serve` never need.
  const { createVitest } = await import('vitest/node');
  const [options, viteOverrides] = suiteVitestOptions({ root, files: request.files, reporter: bridge, maxWorkers: request.maxWorkers, testTimeoutMs: request.testTimeoutMs });
  const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const vitest = await createVitest(
    'test',
    {
      ...options,
      provide: { acRun: request.context },
      fileParallelism: request.fileParallelism,
      testNamePattern: testNamePattern(request.ids),
    },
    viteOverrides,
  );
  debug('vitest created');
  // vitest's logger ends the process 1 ms after SIGINT/SIGTERM; the CLI's own handler must decide instead
  // (stop the run, write the reports, then exit 130/143).
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(name)) if (!signalListeners[name].includes(listener)) process.off(name, listener);
  }
  const { signal } = request;
  try {
    const started = vitest.start();
    if (!signal) await started;
    else {
      // A stopped run does not wait for the checks in flight (a hung target holds each for its timeout).
      started.catch(() => {});
      let onAbort: (() => void) | undefined;
      const stopped = new Promise<void>((resolve) => {
        onAbort = () => resolve();
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      await Promise.race([started, stopped]);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      if (signal.aborted) {
        debug('phase stopped');
        await vitest.cancelCurrentRun('keyboard-input').catch(() => {});
      }
    }
    debug('vitest run finished');
  } finally {
    const closed = vitest.close();
    if (signal?.aborted) {
      closed.catch(() => {});
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, STOP_CLOSE_MS).unref())]);
    } else {
      await closed;
    }
    debug('vitest closed');
    // vitest marks failed tests on the process; the verdict is the engine's, not vitest's.
    process.exitCode = savedExitCode;
  }
  return { unhandled: bridge.unhandled };
}
