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

/** Threads parked between runs. */
const parked: Worker[] = [];
/**
 * Stops under way: vitest does not await a run's worker stop before it reports the run finished, so the next
 * run's start waits for them (bounded: a stop that never completes leaves nothing to reuse anyway).
 */
const stopping = new Set<Promise<void>>();
const STOP_WAIT_MS = 5_000;

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
          stopping.delete(done);
          resolveStop();
        };
      });
      stopping.add(done);
    }
    this.current().postMessage(message);
  }

  async start(): Promise<void> {
    // vitest calls start again when it reuses this runner for another file of the same run.
    if (this.thread) return;
    if (stopping.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(stopping), new Promise((resolveWait) => (timer = setTimeout(resolveWait, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    }
    const reused = parked.pop();
    if (reused) {
      reused.ref();
      this.thread = reused;
    } else {
      threadsStarted += 1;
      this.thread = new Worker(THREAD_PROGRAM, {
        eval: true,
        workerData: { vitestWorker: resolve(this.options.distPath, 'worker.js') },
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
        thread.unref();
        parked.push(thread);
      } else {
        await thread.terminate();
      }
    } finally {
      this.stopDone?.();
      this.stopDone = undefined;
    }
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
  await Promise.all(parked.splice(0).map((thread) => thread.terminate()));
}
