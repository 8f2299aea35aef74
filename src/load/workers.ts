/**
 * `load --workers N`: the send loop on N threads (worker_threads, measured cheaper than child processes:
 * bench/hot-path-bench.ts), each with its own connections, its own request source and an exact share of
 * the schedule (load-worker.ts). This side starts them, gives them one start time, merges their rows into
 * the run's one LoadStats row by row (worker-share.ts: tallies added once, histograms merged exactly) and
 * hands each merged row to the same per-second consumer a single-thread run has (progress, `--stream`,
 * thresholds, `--abort-on-fail`); a halt or a signal goes to every worker.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { HarnessError } from '../errors.js';
import type { DriveResult, IntervalState } from './driver.js';
import type { ArrivalSchedule } from './schedule.js';
import type { IntervalRow, LoadStats } from './stats.js';
import { decodeHistogram, mergedStopReason, type FromWorker, type RowMessage, type ShippedHistogram, type ToWorker, type WorkerSetup } from './worker-share.js';

const WORKER_URL = new URL('./load-worker.js', import.meta.url);
/** How far ahead of "all ready" the common start is set: every worker has its 'go' well before it. */
const START_MARGIN_MS = 50;

/** True when the compiled worker file exists (the package, dist/); running from the TypeScript sources it does not. */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER_URL));
}

export interface WorkerPool {
  /** Resolves once every worker primed its source (with the first one's word on it); rejects with the first set-up failure. */
  ready: Promise<Extract<FromWorker, { type: 'ready' }>>;
  /** Starts sending; resolves when every worker is done, with the merged result and each thread's busy share. */
  run(options: PoolRunOptions): Promise<{ result: DriveResult; busy: number[] }>;
  /** Stops every thread at once (set-up stopped, or the run is over). */
  terminate(): Promise<void>;
}

export interface PoolRunOptions {
  schedule: ArrivalSchedule;
  stats: LoadStats;
  signal?: AbortSignal;
  halt: AbortSignal;
  onInterval?: (row: IntervalRow, state: IntervalState) => void;
}

export function startWorkers(setups: WorkerSetup[]): WorkerPool {
  const workers = setups.map((setup) => new Worker(WORKER_URL, { workerData: setup }));
  let listener: ((index: number, message: FromWorker) => void) | undefined;
  let failure: ((error: Error) => void) | undefined;
  const toError = (message: Extract<FromWorker, { type: 'failed' }>['error']): Error =>
    new HarnessError(message.code ?? 'INTERNAL', message.message, { ...(message.field ? { field: message.field } : {}), ...(message.hint ? { hint: message.hint } : {}) });
  const readies = workers.map(
    (worker, index) =>
      new Promise<Extract<FromWorker, { type: 'ready' }>>((resolve, reject) => {
        worker.on('message', (message: FromWorker) => {
          if (message.type === 'ready') resolve(message);
          else if (message.type === 'failed') {
            const error = toError(message.error);
            reject(error);
            failure?.(error);
          } else listener?.(index, message);
        });
        const broke = (error: Error): void => {
          const wrapped = new HarnessError('INTERNAL', `load worker ${index + 1} failed: ${error.message}`, { cause: error });
          reject(wrapped);
          failure?.(wrapped);
        };
        worker.on('error', broke);
        worker.on('exit', (code) => {
          if (code !== 0) broke(new Error(`it exited with code ${code}`));
        });
      }),
  );
  const ready = Promise.all(readies).then((all) => all[0]!);
  // Nobody may be waiting yet when a worker fails in set-up: the rejection is kept for `ready`'s reader.
  ready.catch(() => {});
  const post = (message: ToWorker): void => {
    for (const worker of workers) worker.postMessage(message);
  };
  return {
    ready,
    terminate: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
    run(options) {
      return new Promise((resolve, reject) => {
        const merge = new RowMerge(workers.length, options);
        const results: Array<{ result: DriveResult; busy: number } | undefined> = workers.map(() => undefined);
        const sendLags: ShippedHistogram[] = [];
        const onAbort = (): void => post({ type: 'interrupt' });
        const onHalt = (): void => post({ type: 'halt' });
        const cleanUp = (): void => {
          options.signal?.removeEventListener('abort', onAbort);
          options.halt.removeEventListener('abort', onHalt);
        };
        failure = (error) => {
          cleanUp();
          reject(error);
        };
        listener = (index, message) => {
          if (message.type === 'row') {
            merge.add(index, message);
            return;
          }
          if (message.type !== 'done') return;
          results[index] = { result: message.result, busy: message.busy };
          sendLags.push(message.sendLag);
          for (const sample of message.samples) options.stats.samples?.keep(sample);
          if (results.some((entry) => entry === undefined)) return;
          cleanUp();
          for (const lag of sendLags) options.stats.sendLag.add(decodeHistogram(lag));
          const done = results as Array<{ result: DriveResult; busy: number }>;
          const sendingMs = Math.max(...done.map((entry) => entry.result.sendingMs));
          const stopReason = mergedStopReason(done.map((entry) => entry.result.stopReason));
          merge.finish(sendingMs, stopReason === 'completed');
          resolve({
            result: {
              startedAt: Math.min(...done.map((entry) => entry.result.startedAt)),
              elapsedMs: Math.max(...done.map((entry) => entry.result.elapsedMs)),
              sendingMs,
              stopReason,
              starved: done.reduce((sum, entry) => sum + entry.result.starved, 0),
            },
            busy: done.map((entry) => entry.busy),
          });
        };
        if (options.signal?.aborted) post({ type: 'interrupt' });
        options.signal?.addEventListener('abort', onAbort, { once: true });
        options.halt.addEventListener('abort', onHalt, { once: true });
        const startAt = performance.timeOrigin + performance.now() + START_MARGIN_MS;
        merge.start(startAt - performance.timeOrigin);
        post({ type: 'go', startAt });
      });
    },
  };
}

/**
 * The merged timeline: row k of the run is closed once every worker sent its row k (or finished before
 * it), from their shares together; the last row when all have finished. A worker's rows are held until
 * then, so a fast worker's next second never lands in the current row.
 */
class RowMerge {
  private readonly waiting: RowMessage[][];
  private readonly finished: boolean[];
  private t0 = 0;
  private askedSoFar = 0;
  private readonly inFlight: number[];

  constructor(
    count: number,
    private readonly options: PoolRunOptions,
  ) {
    this.waiting = Array.from({ length: count }, () => []);
    this.finished = Array.from({ length: count }, () => false);
    this.inFlight = Array.from({ length: count }, () => 0);
  }

  start(t0: number): void {
    this.t0 = t0;
  }

  add(worker: number, message: RowMessage): void {
    this.waiting[worker]!.push(message);
    if (message.final) this.finished[worker] = true;
    this.flush();
  }

  /** Closes every complete row: each worker has sent it, or has finished. The final rows wait for finish(). */
  private flush(): void {
    for (;;) {
      const regular = (worker: number): boolean => {
        const head = this.waiting[worker]![0];
        return head !== undefined && !head.final;
      };
      const workers = this.waiting.map((_, worker) => worker);
      if (!workers.every((worker) => regular(worker) || this.finished[worker]) || !workers.some(regular)) return;
      for (const worker of workers) if (regular(worker)) this.absorb(worker, this.waiting[worker]!.shift()!);
      this.roll(false, undefined);
    }
  }

  /**
   * Every worker is done: what is left (their last rows) makes the final row. `completed`: every worker sent
   * its whole share, so the schedule asked for all of it (each share's last arrival comes before the
   * schedule's end: counted up to the last send, the asked total would fall short by the rounding).
   */
  finish(sendingMs: number, completed: boolean): void {
    for (let worker = 0; worker < this.waiting.length; worker += 1) {
      for (const message of this.waiting[worker]!.splice(0)) this.absorb(worker, message);
    }
    this.roll(true, sendingMs, completed);
  }

  private absorb(worker: number, message: RowMessage): void {
    const { stats } = this.options;
    stats.absorb(message.share, message.latency === undefined ? undefined : decodeHistogram(message.latency));
    if (message.latencies && stats.latencyTap) for (const ms of message.latencies) stats.latencyTap(ms);
    this.inFlight[worker] = message.final ? 0 : message.inFlight;
  }

  private roll(final: boolean, sendingMs: number | undefined, completed = false): void {
    const { schedule, stats } = this.options;
    const elapsedMs = performance.now() - this.t0;
    const askedTotal = completed ? schedule.total : Math.min(schedule.total, Math.round(schedule.countBetween(0, Math.min(elapsedMs, sendingMs ?? elapsedMs))));
    const asked = Math.max(0, askedTotal - this.askedSoFar);
    this.askedSoFar += asked;
    const row = stats.roll(elapsedMs, asked);
    const inFlight = this.inFlight.reduce((sum, n) => sum + n, 0);
    this.options.onInterval?.(row, { inFlight, elapsedMs, final });
  }
}
