/**
 * What runs a run's checks: the suites' own scheduler (suites/support/scheduler.ts), in this thread. The
 * engine imports it by URL, from the suites' folder in the form the engine runs in (suite-files.ts): compiled
 * suites are plain ES modules Node imports itself; from the TypeScript sources (the project's own tests,
 * under vitest) the test runner's loader imports them.
 *
 * Why in this thread, and not vitest's worker thread (vitest-bridge.ts, suite-pool.ts, which still run the
 * same suites, `runner: 'vitest'`): a one-check run spent about 1 s of CPU starting vitest, vite and a second
 * isolate with its own copy of the client, jose and undici, for a check of milliseconds (BENCHMARKS.md, issue
 * 46). What the thread gave is kept otherwise: the suites' modules are imported once per process and serve run
 * after run (the fault runner's session); the checks run side by side within `--concurrency` as before; a
 * stopped run returns at once, its bodies in flight left to end alone, their client closed (suites/support/check.ts).
 */
import { pathToFileURL } from 'node:url';
import { errorLine } from '../errors.js';
import { debugLine } from '../debug.js';
import type { RunContext, RunSink, SuiteSchedulerModule, SuiteToLoad } from './check-meta.js';
import { discoverSuites } from './suite-files.js';

export interface SuiteRunRequest {
  /** Result keys to run; the suites' other checks do not run. */
  ids: string[];
  /** The suite files to import, with their selected checks. */
  suites: SuiteToLoad[];
  context: RunContext;
  /** Stops the run: it returns at once, whatever its checks were waiting for. */
  signal?: AbortSignal;
}

/** Runs run after run (the fault runner's session runs hundreds of targets through one). */
export interface SuiteRunner {
  /** Runs the selected checks: every group at once, then the clock-moving checks alone. */
  run(request: SuiteRunRequest, sink: RunSink): Promise<{ unhandled: string[] }>;
  close(): Promise<void>;
}

const loaded = new Map<string, Promise<SuiteSchedulerModule>>();

/** The scheduler module (and with it the suites' support: client, jose, undici), imported once per process. */
function loadScheduler(path: string): Promise<SuiteSchedulerModule> {
  let module = loaded.get(path);
  if (module === undefined) {
    module = import(pathToFileURL(path).href) as Promise<SuiteSchedulerModule>;
    loaded.set(path, module);
    // Not remembered when it fails: the next run tries again and reports the same error.
    module.catch(() => loaded.delete(path));
  }
  return module;
}

/**
 * Starts importing the scheduler now (and with it the suites' support: client, jose, undici), so that it
 * loads while `run` waits on its target (the embedded sandbox makes its keys off the main thread, an image
 * starts); the run then finds it loaded.
 */
export function preloadSuites(): void {
  try {
    // A failure shows again, with its cause, when the run loads it.
    loadScheduler(discoverSuites().scheduler).catch((error: unknown) => debugLine('engine', `suites not preloaded: ${errorLine(error)}`));
  } catch (error) {
    debugLine('engine', `suites not preloaded: ${errorLine(error)}`);
  }
}

/** The project's scheduler as the session's runner. */
export function openSchedulerRunner(path: string): SuiteRunner {
  // A promise a check dropped that rejects: reported as an error outside any check (as vitest reported it),
  // not a crash of the process. Listened to from the first run until the runner closes, not per run: a
  // check body a stop or its time limit left running may drop one after its run has returned (a stop
  // closes the run's client, which rejects every request in flight at once).
  let unhandled: string[] | undefined;
  let listening = false;
  const onUnhandled = (reason: unknown): void => {
    if (unhandled) unhandled.push(errorLine(reason));
    else debugLine('engine', `a rejection after its run ended, from a check body still running: ${errorLine(reason)}`);
  };
  return {
    async run(request, sink) {
      const scheduler = await loadScheduler(path);
      debugLine('engine', `run: ${request.suites.length} suites, ${request.ids.length} checks`);
      if (!listening) {
        process.on('unhandledRejection', onUnhandled);
        listening = true;
      }
      const mine: string[] = [];
      unhandled = mine;
      try {
        await scheduler.runChecks({ context: request.context, suites: request.suites, ids: request.ids, ...(request.signal ? { signal: request.signal } : {}) }, sink);
      } finally {
        unhandled = undefined;
      }
      debugLine('engine', request.signal?.aborted ? 'run stopped' : 'run finished');
      return { unhandled: mine };
    },
    // The checks ran in this thread: what is left is the last run's client (a stopped run's is closed at the stop).
    async close() {
      const scheduler = loaded.get(path);
      if (scheduler) await (await scheduler.catch(() => undefined))?.close();
      if (listening) process.off('unhandledRejection', onUnhandled);
      listening = false;
    },
  };
}
