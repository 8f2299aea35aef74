/**
 * The parent side of fault verification: a few worker processes (worker.ts, from the build), each fed the
 * next plan as soon as it is free, longest plans first. A worker that dies takes its current plan with it
 * (reported as failed) and is replaced.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DEFAULT_TIMEOUT_MS } from '../../defaults.js';
import { packageRoot } from '../../package.js';
import { stopMs } from '../../stop/timings.js';
import type { RunPlan } from '../verify-plan.js';
import type { ParentMessage, RunReport, WorkerMessage } from './protocol.js';

export interface PoolRun {
  plan: RunPlan;
  report?: RunReport;
  error?: string;
  durationMs: number;
}

export interface PoolOptions {
  processes: number;
  /** Checks in flight at once inside each process (its one suite worker's concurrent groups). */
  checksInFlight: number;
  seed: string;
  timeoutMs?: number;
  /** Kills a worker stuck on one plan this long. */
  planTimeoutMs?: number;
  workerPath?: string;
  onDone?: (run: PoolRun) => void;
}

export function workerPath(): string {
  return join(packageRoot(), 'dist', 'src', 'mutation', 'runner', 'worker.js');
}

export async function runInPool(plans: readonly RunPlan[], options: PoolOptions): Promise<PoolRun[]> {
  const order = plans.map((plan, index) => ({ plan, index })).sort((a, b) => b.plan.weight - a.plan.weight);
  const results: PoolRun[] = new Array(plans.length);
  const stderrTails = new WeakMap<ChildProcess, () => string>();
  let next = 0;

  const startWorker = (): Promise<ChildProcess> =>
    new Promise((resolve, reject) => {
      const child = fork(options.workerPath ?? workerPath(), [], {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: {
          ...process.env,
          NO_COLOR: '1',
        },
      });

      // The last few KB of the worker's stderr explain a crash (a stale build, a module that fails to load).
      let tail = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        tail = (tail + chunk.toString('utf8')).slice(-4096);
      });
      stderrTails.set(child, () => tail);
      const onMessage = (message: WorkerMessage): void => {
        if (message.type === 'started') {
          const init: ParentMessage = { type: 'init', checksInFlight: options.checksInFlight, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
          child.send(init);
          return;
        }
        if (message.type !== 'ready') return;
        child.off('message', onMessage);
        resolve(child);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`fault worker exited (${String(code)}) before it was ready:\n${tail}`)));
    });

  const runOne = (child: ChildProcess, plan: RunPlan, job: number): Promise<PoolRun> =>
    new Promise((resolve) => {
      const started = Date.now();
      const timer = setTimeout(() => child.kill('SIGKILL'), options.planTimeoutMs ?? stopMs('faultWorker'));
      const finish = (run: PoolRun): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(run);
      };
      const onMessage = (message: WorkerMessage): void => {
        if (message.type === 'result' && message.job === job) finish({ plan, report: message.report, durationMs: message.durationMs });
        if (message.type === 'failed' && message.job === job) finish({ plan, error: message.error, durationMs: message.durationMs });
      };
      const onExit = (code: number | null): void =>
        finish({ plan, error: `the fault worker died (exit ${String(code)}):\n${stderrTails.get(child)?.() ?? ''}`, durationMs: Date.now() - started });
      child.on('message', onMessage);
      child.once('exit', onExit);
      const request: ParentMessage = { type: 'run', job, fault: plan.name, ids: plan.ids, seed: options.seed };
      child.send(request);
    });

  const lane = async (): Promise<void> => {
    let child: ChildProcess | undefined;
    try {
      while (next < order.length) {
        const { plan, index } = order[next++]!;
        child ??= await startWorker();
        const run = await runOne(child, plan, index);
        results[index] = run;
        options.onDone?.(run);
        // A worker that died (or was killed for a hung plan) is replaced for the next plan.
        if (child.exitCode !== null || child.signalCode !== null) child = undefined;
      }
    } finally {
      if (child && child.exitCode === null) {
        child.send({ type: 'exit' } satisfies ParentMessage);
        await new Promise((done) => child!.once('exit', done));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.processes, order.length)) }, lane));
  return results;
}
