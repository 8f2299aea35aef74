/**
 * The suites' vitest pool, for a session whose runner is vitest (`runner: 'vitest'`; the engine's own
 * scheduler needs no thread, suite-runner.ts): one worker thread that runs vitest's own worker loop (the public `vitest/worker`
 * entry: init, runBaseTests, setupEnvironment) and is kept between runs.
 *
 * vitest ends a pool's workers when a run is over. Here a run is one target, and the fault self-verification
 * runs hundreds of them in one process: a new thread each time would import vitest's runtime, undici, jose,
 * faker and the suites again (about 0.4 s of CPU, and with Node 20 a loader-hooks thread too). So when vitest
 * stops the worker cleanly, the thread's loop listens again and the thread is parked, unreferenced; the next
 * run's start takes it back. A worker stopped any other way (a cancelled run, a check still hung on a target)
 * is terminated, never reused. `closeSuiteThreads` ends the parked thread when the runner closes.
 *
 * The thread's heap is sized for what it holds. A small young generation: the suites allocate many
 * short-lived objects (requests, bodies, redacted copies) and V8's default lets a thread grow by tens of
 * megabytes before it collects. An old-generation ceiling far above what a run keeps alive (about 30 MB after
 * a full run, measured with a heap snapshot): V8 starts collecting the old generation sooner under a ceiling
 * than under the default one it derives from the machine's memory (measured on a full run: the thread's old
 * space peaked at 30 MB instead of 41 MB, the process's peak RSS 10-15 MB lower).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { CHECKS_IN_FLIGHT } from './check-meta.js';
import { stopMs } from '../stop/timings.js';
import { within } from '../stop/within.js';

/** Young-generation size of a suite worker thread (MB). */
export const SUITE_WORKER_YOUNG_MB = 4;
/** Old-generation ceiling of a suite worker thread (MB): eight times what a full run keeps alive. */
export const SUITE_WORKER_OLD_MB = 256;

export const SUITE_POOL_NAME = 'access-conformance-threads';

/** What the thread posts when it must not be kept: a check body still running after its file finished. */
const DISCARD = '__accessConformanceDiscard__';

/**
 * The thread's program, plain JavaScript because the thread starts from this text whether the engine runs
 * compiled or from its TypeScript sources. vitest's loop calls `teardown` after it answered "stopped"; this
 * one listens again for the next run's "start". The environment (with vitest's module hooks) is set up once
 * per thread, not once per run.
 *
 * Every RPC call of the thread (the module hooks', vitest's own error and console reports) goes through the
 * run in progress, and between runs to one that answers at once: vitest waits for every pending call before
 * it finishes a run, and a call on an ended run's RPC is never answered, so the next run would never end.
 * A check body still running when its file finished (a check that timed out on a hung target) would go on
 * against the next run's target: the thread says so before vitest's "finished", and is not kept.
 */
const THREAD_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.vitestWorker).then(({ init, runBaseTests, setupEnvironment }) => {
  let environment;
  const idle = new Proxy({}, { get: (_, key) => (key === '$rejectPendingCalls' ? () => [] : key === 'then' ? undefined : async () => undefined) });
  let currentRpc = idle;
  const rpc = new Proxy({}, { get: (_, key) => currentRpc[key] });
  const inFlight = () => globalThis[Symbol.for(workerData.checksInFlight)] ?? 0;
  const listen = () => init({
    post: (message) => parentPort.postMessage(message),
    on: (listener) => parentPort.on('message', listener),
    off: (listener) => parentPort.off('message', listener),
    teardown: () => {
      currentRpc = idle;
      parentPort.removeAllListeners('message');
      listen();
    },
    runTests: async (state, traces) => {
      state.rpc = rpc;
      try {
        await runBaseTests('run', state, traces);
      } finally {
        if (inFlight() > 0) parentPort.postMessage({ [workerData.discard]: true });
      }
    },
    collectTests: (state, traces) => {
      state.rpc = rpc;
      return runBaseTests('collect', state, traces);
    },
    setup: (context) => {
      currentRpc = context.rpc;
      environment ??= setupEnvironment({ ...context, rpc });
      return environment.then(() => async () => {});
    },
  });
  listen();
});
`;

// The lists below are the process's, not a runner's: a process opens one runner at a time (the CLI; each
// fault worker process), and two open at once would end each other's threads when either closes.

/** Threads parked between runs, each with what takes it off the list should it end while parked. */
const parked: Array<{ thread: Worker; unwatch: () => void }> = [];
/**
 * Workers whose stop is under way: vitest does not await a run's worker stop before it reports the run
 * finished, so the next run's start waits for them. Bounded: a stop vitest never completes (its own stop
 * timed out) leaves nothing to reuse, and that worker's thread is ended instead of left running.
 */
const stopping = new Map<SuiteThreadWorker, Promise<void>>();

function park(thread: Worker): void {
  const entry = { thread, unwatch: () => undefined };
  // A parked thread has no vitest listener left: one that fails or ends just leaves the list.
  const drop = (): void => {
    entry.unwatch();
    const index = parked.indexOf(entry);
    if (index !== -1) parked.splice(index, 1);
  };
  thread.on('error', drop);
  thread.on('exit', drop);
  entry.unwatch = () => {
    thread.off('error', drop);
    thread.off('exit', drop);
  };
  thread.unref();
  parked.push(entry);
}

function unpark(): Worker | undefined {
  const entry = parked.pop();
  if (!entry) return undefined;
  entry.unwatch();
  entry.thread.ref();
  return entry.thread;
}

async function awaitStops(): Promise<void> {
  if (stopping.size === 0) return;
  const timedOut = await within(Promise.all(stopping.values()).then(() => false), stopMs('suiteThreadStop'), () => true);
  if (timedOut) await Promise.all([...stopping.keys()].map((worker) => worker.abandon()));
}

interface ThreadSettings {
  /** vitest's dist folder (its `worker.js` is the thread's loop). */
  distPath: string;
  env: Record<string, string | undefined>;
  execArgv: string[];
}

function startThread(settings: ThreadSettings): Worker {
  threadsStarted += 1;
  return new Worker(THREAD_PROGRAM, {
    eval: true,
    // A URL: import() takes no Windows path.
    workerData: { vitestWorker: pathToFileURL(resolve(settings.distPath, 'worker.js')).href, checksInFlight: CHECKS_IN_FLIGHT, discard: DISCARD },
    env: settings.env,
    execArgv: settings.execArgv,
    resourceLimits: { maxYoungGenerationSizeMb: SUITE_WORKER_YOUNG_MB, maxOldGenerationSizeMb: SUITE_WORKER_OLD_MB },
    // The suites never print (the vitest options silence the console); nothing to pipe.
    stdout: false,
    stderr: false,
  });
}

/** Counted for tests: how many suite threads this process started. */
let threadsStarted = 0;
export function suiteThreadsStarted(): number {
  return threadsStarted;
}

type Listener = (arg: unknown) => void;

type Response = { __vitest_worker_response__?: unknown; type?: unknown; error?: unknown; [DISCARD]?: unknown };

/** vitest's "stopped" answer, without a teardown error: the thread's loop listens again. */
function isCleanStop(message: unknown): boolean {
  const response = typeof message === 'object' && message !== null ? (message as Response) : {};
  return response.__vitest_worker_response__ === true && response.type === 'stopped' && response.error === undefined;
}

function isDiscard(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as Response)[DISCARD] === true;
}

/** Every worker with a thread (in a run, or stopping): a stopped run or a close ends their threads. */
const live = new Set<SuiteThreadWorker>();

class SuiteThreadWorker implements PoolWorker {
  readonly name = SUITE_POOL_NAME;
  private thread: Worker | undefined;
  /** What vitest attached to the thread: detached when the thread is parked (it is not ending). */
  private readonly listeners: Array<{ event: string; callback: Listener }> = [];
  /** vitest asked the thread to stop (this worker is in `stopping`), and it answered "stopped" cleanly. */
  private stoppedCleanly = false;
  /** Not to be kept: a check body outlived its file, or the run was stopped. */
  discard = false;
  private stopDone: (() => void) | undefined;
  private readonly onMessage = (message: unknown): void => {
    if (isDiscard(message)) this.discard = true;
    else if (stopping.has(this) && isCleanStop(message)) this.stoppedCleanly = true;
  };

  constructor(private readonly options: PoolOptions) {}

  private current(): Worker {
    if (!this.thread) throw new Error('the suite worker thread is not running');
    return this.thread;
  }

  on(event: string, callback: Listener): void {
    this.current().on(event, callback);
    this.listeners.push({ event, callback });
  }

  off(event: string, callback: Listener): void {
    this.current().off(event, callback);
    const index = this.listeners.findIndex((entry) => entry.event === event && entry.callback === callback);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  send(message: WorkerRequest): void {
    if (message.type === 'stop' && !stopping.has(this)) {
      const done = new Promise<void>((resolveStop) => {
        this.stopDone = () => {
          stopping.delete(this);
          resolveStop();
        };
      });
      stopping.set(this, done);
    }
    this.current().postMessage(message);
  }

  async start(): Promise<void> {
    // vitest calls start again when it reuses this runner for another file of the same run.
    if (this.thread) return;
    await awaitStops();
    const reused = unpark();
    if (reused) {
      this.thread = reused;
    } else {
      this.thread = startThread({ distPath: this.options.distPath, env: this.options.env, execArgv: this.options.execArgv });
    }
    this.stoppedCleanly = false;
    this.discard = false;
    this.thread.on('message', this.onMessage);
    live.add(this);
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    try {
      if (!thread) return;
      thread.off('message', this.onMessage);
      for (const { event, callback } of this.listeners.splice(0)) thread.off(event, callback);
      if (this.stoppedCleanly && !this.discard) {
        park(thread);
      } else {
        await thread.terminate();
      }
    } finally {
      live.delete(this);
      this.stopDone?.();
      this.stopDone = undefined;
    }
  }

  /** Its stop never completed: the thread is ended, not kept, and the next run does not wait for it. */
  async abandon(): Promise<void> {
    this.discard = true;
    await this.stop();
  }

  deserialize(data: unknown): unknown {
    return data;
  }
}

export const suitePool: PoolRunnerInitializer = {
  name: SUITE_POOL_NAME,
  createPoolWorker: (options) => new SuiteThreadWorker(options),
};

/** A run was stopped (a hung target, an interruption): its thread is ended when vitest stops it, not kept. */
export function discardSuiteThreads(): void {
  for (const worker of live) worker.discard = true;
}

/**
 * Ends every suite thread (the runner closes): the parked ones, and any vitest did not stop in time (a close
 * bounded after a stopped run, or a stop of vitest's own that timed out and never reached the worker).
 */
export async function closeSuiteThreads(): Promise<void> {
  await Promise.all([
    ...parked.splice(0).map((entry) => {
      entry.unwatch();
      return entry.thread.terminate();
    }),
    ...[...live].map((worker) => worker.abandon()),
  ]);
}
