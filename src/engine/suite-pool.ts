/**
 * The suites' vitest pool: vitest's own thread worker (its `workers/threads.js` entry, the same messages),
 * started with a small young generation. The suites allocate many short-lived objects (requests, bodies,
 * redacted copies) and V8's default young generation lets each thread grow by tens of megabytes before it
 * collects; a few megabytes cost no measurable CPU here and keep a run's peak memory down.
 */
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';

/** Young-generation size of a suite worker thread (MB). */
export const SUITE_WORKER_YOUNG_MB = 4;

class SuiteThreadWorker implements PoolWorker {
  readonly name = SUITE_POOL_NAME;
  private thread: Worker | undefined;
  private readonly entrypoint: string;

  constructor(private readonly options: PoolOptions) {
    this.entrypoint = resolve(options.distPath, 'workers/threads.js');
  }

  private current(): Worker {
    if (!this.thread) throw new Error('the suite worker thread is not running');
    return this.thread;
  }

  on(event: string, callback: (arg: unknown) => void): void {
    this.current().on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.current().off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.current().postMessage(message);
  }

  async start(): Promise<void> {
    // Called again when vitest reuses the runner for the next file: one thread per runner.
    this.thread ??= new Worker(this.entrypoint, {
      env: this.options.env,
      execArgv: this.options.execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: SUITE_WORKER_YOUNG_MB },
      // The suites never print (the vitest options silence the console); nothing to pipe.
      stdout: false,
      stderr: false,
    });
  }

  async stop(): Promise<void> {
    await this.thread?.terminate();
    this.thread = undefined;
  }

  deserialize(data: unknown): unknown {
    return data;
  }
}

export const SUITE_POOL_NAME = 'access-conformance-threads';

export const suitePool: PoolRunnerInitializer = {
  name: SUITE_POOL_NAME,
  createPoolWorker: (options) => new SuiteThreadWorker(options),
};
