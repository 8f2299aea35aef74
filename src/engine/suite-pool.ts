/**
 * The suites' vitest pool: one worker thread that runs vitest's own worker loop (the public `vitest/worker`
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

/** Young-generation size of a suite worker thread (MB). */
export const SUITE_WORKER_YOUNG_MB = 4;
/** Old-generation ceiling of a suite worker thread (MB): eight times what a full run keeps alive. */
export const SUITE_WORKER_OLD_MB = 256;

export const SUITE_POOL_NAME = 'access-conformance-threads';

/**
 * The thread's program, plain JavaScript because the thread starts from this text whether the engine runs
 * compiled or from its TypeScript sources. vitest's loop calls `teardown` after it answered "stopped"; this
 * one listens again for the next run's "start". The environment (with vitest's module hooks) is set up once
 * per thread, not once per run; the hooks report to the main thread through the RPC of whichever run is in
 * progress (a call on an ended run's RPC would never be answered, and vitest waits for every call before it
 * finishes a run).
 */
const THREAD_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.vitestWorker).then(({ init, runBaseTests, setupEnvironment }) => {
  let environment;
  let currentRpc;
  const rpc = new Proxy({}, { get: (_, key) => currentRpc[key] });
  const listen = () => init({
    post: (message) => parentPort.postMessage(message),
    on: (listener) => parentPort.on('message', listener),
    off: (listener) => parentPort.off('message', listener),
    teardown: () => { parentPort.removeAllListeners('message'); listen(); },
    runTests: (state, traces) => runBaseTests('run', state, traces),
    collectTests: (state, traces) => runBaseTests('collect', state, traces),
    setup: (context) => {
      currentRpc = context.rpc;
      environment ??= setupEnvironment({ ...context, rpc });
      return environment.then(() => async () => {});
    },
  });
  listen();
});
`;

/** Threads parked between runs, each with what takes it off the list should it end while parked. */
const parked: Array<{ thread: Worker; unwatch: () => void }> = [];
/**
 * Workers whose stop is under way: vitest does not await a run's worker stop before it reports the run
 * finished, so the next run's start waits for them. Bounded: a stop vitest never completes (its own stop
 * timed out) leaves nothing to reuse, and that worker's thread is ended instead of left running.
 */
const stopping = new Map<SuiteThreadWorker, Promise<void>>();
const STOP_WAIT_MS = 5_000;

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
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    Promise.all(stopping.values()).then(() => false),
    new Promise<boolean>((resolveWait) => (timer = setTimeout(() => resolveWait(true), STOP_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (timedOut) await Promise.all([...stopping.keys()].map((worker) => worker.abandon()));
}

/** Counted for tests: how many suite threads this process started. */
let threadsStarted = 0;
export function suiteThreadsStarted(): number {
  return threadsStarted;
}

type Listener = (arg: unknown) => void;

function isStopped(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { __vitest_worker_response__?: unknown; type?: unknown }).__vitest_worker_response__ === true && (message as { type?: unknown }).type === 'stopped';
}

class SuiteThreadWorker implements PoolWorker {
  readonly name = SUITE_POOL_NAME;
  private thread: Worker | undefined;
  /** What vitest attached to the thread: detached when the thread is parked (it is not ending). */
  private readonly listeners: Array<{ event: string; callback: Listener }> = [];
  /** vitest asked the thread to stop, and the thread answered "stopped": its loop listens again. */
  private stopAsked = false;
  private stoppedCleanly = false;
  private stopDone: (() => void) | undefined;
  private readonly onMessage = (message: unknown): void => {
    if (this.stopAsked && isStopped(message)) this.stoppedCleanly = true;
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
    if (message.type === 'stop' && !this.stopAsked) {
      this.stopAsked = true;
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
      threadsStarted += 1;
      this.thread = new Worker(THREAD_PROGRAM, {
        eval: true,
        // A URL: import() takes no Windows path.
        workerData: { vitestWorker: pathToFileURL(resolve(this.options.distPath, 'worker.js')).href },
        env: this.options.env,
        execArgv: this.options.execArgv,
        resourceLimits: { maxYoungGenerationSizeMb: SUITE_WORKER_YOUNG_MB, maxOldGenerationSizeMb: SUITE_WORKER_OLD_MB },
        // The suites never print (the vitest options silence the console); nothing to pipe.
        stdout: false,
        stderr: false,
      });
    }
    this.stopAsked = false;
    this.stoppedCleanly = false;
    this.thread.on('message', this.onMessage);
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    try {
      if (!thread) return;
      thread.off('message', this.onMessage);
      for (const { event, callback } of this.listeners.splice(0)) thread.off(event, callback);
      if (this.stoppedCleanly) {
        park(thread);
      } else {
        await thread.terminate();
      }
    } finally {
      this.stopDone?.();
      this.stopDone = undefined;
    }
  }

  /** Its stop never completed: the thread is ended, not kept, and the next run does not wait for it. */
  async abandon(): Promise<void> {
    this.stoppedCleanly = false;
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

/** Ends the parked suite threads (the runner closes: no run will take them back). */
export async function closeSuiteThreads(): Promise<void> {
  await Promise.all(parked.splice(0).map((entry) => {
    entry.unwatch();
    return entry.thread.terminate();
  }));
}
