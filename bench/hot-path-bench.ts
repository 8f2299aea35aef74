/**
 * `npm run bench -- hot-path` (issue 49): the load driver on every core and the reference at the speed of
 * its rules, each figure the median of BENCH_HOT_ROUNDS interleaved rounds (default 5; the order of the two
 * sides alternates each round, so neither always runs on the warmer machine).
 *
 * 1. Starting a sending thread: a worker thread against a child process, each loading what a load worker
 *    loads (bench/hot-path-child.ts `probe`), time to ready.
 * 2. The driver: a minimal node:http server in a child process (hot-path-child.ts `minimal`); the driver
 *    asked far beyond its capacity (BENCH_HOT_SATURATE/s, 64 connections, 256 in flight, 1 KiB HMAC-signed
 *    bodies) with 1 worker and with all (the cores, at least 2): completed per second, and the driver's CPU
 *    per request (this process, every thread, from the sending on: a worker's start and priming are a cost
 *    per run); then both at a rate both hold
 *    (BENCH_HOT_HOLD/s): the merged p50 and p99 against one thread's.
 * 3. The reference (`serve`): a sandbox in a child process (bench/reference-server.js of each build) per run,
 *    fresh each time, driven by this checkout's driver on one worker: saturated (40,000/s asked, 256 in
 *    flight, as issue 49 measured) completed per second, and at a fixed 5,000/s the server's CPU per webhook
 *    (utime + stime of its process, /proc). With BENCH_BASE_BIN (the bin of another build, e.g. a worktree
 *    of e624486 built with `npm run build:all`), that build side by side.
 *
 * BENCH_HOT_SECONDS per run (default 5). Every figure goes to bench/figures.json through run-bench.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runLoad, type LoadOptions, type LoadReport } from '../src/load/index.js';
import type { ResolvedProfile } from '../src/profile/types.js';
import { benchProfile } from './bench-profile.js';
import { median, type Bench, type BenchMetric, type BenchReport } from './registry.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_HOT_ROUNDS ?? 5));
const SECONDS = Math.max(1, Number(process.env.BENCH_HOT_SECONDS ?? 5));
const SATURATE = Number(process.env.BENCH_HOT_SATURATE ?? 200_000);
const HOLD = Number(process.env.BENCH_HOT_HOLD ?? 4000);
const SERVE_SATURATE = 40_000;
const SERVE_FIXED = 5000;
const ALL_WORKERS = Math.max(2, availableParallelism());
const CHILD = fileURLToPath(new URL('./hot-path-child.js', import.meta.url));
const THIS_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** CPU ms of a process so far (utime + stime, clock ticks of 10 ms). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function forkChild<T>(script: string, args: string[]): Promise<{ message: T; child: ChildProcess }> {
  const child = fork(script, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve({ message: message as T, child });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.disconnect();
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}

/** Each side in turn, the order alternating by round. */
async function interleaved<K extends string>(sides: readonly K[], run: (side: K, round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await run(side, round);
  }
}

// ---- 1. worker thread or child process ------------------------------------------------------------------

async function startCosts(): Promise<{ threadMs: number; processMs: number }> {
  const thread: number[] = [];
  const proc: number[] = [];
  await interleaved(['thread', 'process'] as const, async (side) => {
    const started = performance.now();
    if (side === 'thread') {
      const worker = new Worker(CHILD, { argv: ['probe'] });
      await new Promise((resolve) => worker.once('message', resolve));
      thread.push(performance.now() - started);
      await worker.terminate();
    } else {
      const { child } = await forkChild(CHILD, ['probe']);
      proc.push(performance.now() - started);
      await stopChild(child);
    }
  });
  return { threadMs: median(thread), processMs: median(proc) };
}

// ---- 2. the driver ----------------------------------------------------------------------------------------

interface DriverRun {
  rate: number;
  cpuUsPerRequest: number;
  p50: number;
  p99: number;
  busy: number[];
}

async function driverRun(profile: ResolvedProfile, rate: number, workers: number): Promise<DriverRun> {
  // The sending's CPU (every thread of this process), from the `load` phase on: a worker's start and its
  // priming are a fixed cost per run, not a cost per request.
  let before = process.cpuUsage();
  const options: LoadOptions = {
    profile,
    rate,
    durationMs: SECONDS * 1000,
    connections: 64,
    maxInFlight: 256,
    bodyBytes: 1024,
    outDir: null,
    seed: 'bench',
    workers,
    onPhase: (phase) => {
      if (phase === 'load') before = process.cpuUsage();
    },
  };
  const { report } = await runLoad(options);
  const cpu = process.cpuUsage(before);
  return {
    rate: report.rates.achievedPerSecond,
    cpuUsPerRequest: (cpu.user + cpu.system) / Math.max(1, report.counts.completed),
    p50: report.latencyMs.p50,
    p99: report.latencyMs.p99,
    busy: report.driver?.busy ?? [],
  };
}

// ---- 3. the reference ------------------------------------------------------------------------------------

interface ServeRun {
  rate: number;
  cpuUsPerWebhook: number;
  completed: number;
  non200: number;
}

async function serveRun(root: string, rate: number): Promise<ServeRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ac-bench-hot-serve-'));
  const { message, child } = await forkChild<{ profilePath: string; pid: number }>(join(root, 'dist/bench/reference-server.js'), [dir]);
  try {
    const before = processCpuMs(message.pid);
    const { report }: { report: LoadReport } = await runLoad({ profilePath: message.profilePath, rate, durationMs: SECONDS * 1000, maxInFlight: 256, outDir: null, seed: 'bench', workers: 1 });
    const cpuMs = processCpuMs(message.pid) - before;
    const ok = report.counts.statuses['200'] ?? 0;
    return { rate: report.rates.achievedPerSecond, cpuUsPerWebhook: (cpuMs * 1000) / Math.max(1, report.counts.completed), completed: report.counts.completed, non200: report.counts.completed - ok };
  } finally {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const ratio = (a: number, b: number): number => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

export const hotPathBench: Bench = {
  name: 'hot-path',
  description: 'issue 49: load --workers 1 vs all against a minimal server; serve saturated and CPU per webhook at 5k/s, this checkout against BENCH_BASE_BIN',
  async run(): Promise<BenchReport> {
    const loadBefore = loadavg()[0]!;
    const metrics: BenchMetric[] = [];
    const notes: string[] = [];

    const start = await startCosts();
    metrics.push(
      { label: 'start: worker thread ready (median)', value: round1(start.threadMs), unit: 'ms' },
      { label: 'start: child process ready (median)', value: round1(start.processMs), unit: 'ms' },
    );

    const { message: minimal, child: minimalChild } = await forkChild<{ port: number; pid: number }>(CHILD, ['minimal']);
    const profile = benchProfile(`http://127.0.0.1:${minimal.port}`);
    const saturated = new Map<number, DriverRun[]>([[1, []], [ALL_WORKERS, []]]);
    const held = new Map<number, DriverRun[]>([[1, []], [ALL_WORKERS, []]]);
    try {
      // Warm-up: connections, JIT, the server's own.
      await driverRun(profile, HOLD, 1);
      await interleaved([1, ALL_WORKERS].map(String), async (side) => {
        saturated.get(Number(side))!.push(await driverRun(profile, SATURATE, Number(side)));
        held.get(Number(side))!.push(await driverRun(profile, HOLD, Number(side)));
      });
    } finally {
      await stopChild(minimalChild);
    }
    const med = (runs: DriverRun[], key: 'rate' | 'cpuUsPerRequest' | 'p50' | 'p99'): number => median(runs.map((run) => run[key]));
    const one = saturated.get(1)!;
    const all = saturated.get(ALL_WORKERS)!;
    metrics.push(
      { label: 'driver: 1 worker saturated rate (median)', value: Math.round(med(one, 'rate')), unit: '/s' },
      { label: `driver: ${ALL_WORKERS} workers saturated rate (median)`, value: Math.round(med(all, 'rate')), unit: '/s' },
      { label: `driver: ${ALL_WORKERS} workers / 1 worker rate`, value: ratio(med(all, 'rate'), med(one, 'rate')), unit: 'x' },
      { label: 'driver: 1 worker CPU per request (median)', value: round1(med(one, 'cpuUsPerRequest')), unit: 'µs' },
      { label: `driver: ${ALL_WORKERS} workers CPU per request (median)`, value: round1(med(all, 'cpuUsPerRequest')), unit: 'µs' },
      { label: `driver: ${ALL_WORKERS} workers / 1 worker CPU per request`, value: ratio(med(all, 'cpuUsPerRequest'), med(one, 'cpuUsPerRequest')), unit: 'x' },
    );
    for (const workers of [1, ALL_WORKERS]) {
      const runs = held.get(workers)!;
      metrics.push(
        { label: `driver at ${HOLD}/s: ${workers} worker${workers === 1 ? '' : 's'} achieved (median)`, value: Math.round(med(runs, 'rate')), unit: '/s' },
        { label: `driver at ${HOLD}/s: ${workers} worker${workers === 1 ? '' : 's'} p50 (median)`, value: med(runs, 'p50'), unit: 'ms' },
        { label: `driver at ${HOLD}/s: ${workers} worker${workers === 1 ? '' : 's'} p99 (median)`, value: med(runs, 'p99'), unit: 'ms' },
      );
    }
    metrics.push(
      { label: `driver at ${HOLD}/s: p50 ${ALL_WORKERS} workers / 1`, value: ratio(med(held.get(ALL_WORKERS)!, 'p50'), med(held.get(1)!, 'p50')), unit: 'x' },
      { label: `driver at ${HOLD}/s: p99 ${ALL_WORKERS} workers / 1`, value: ratio(med(held.get(ALL_WORKERS)!, 'p99'), med(held.get(1)!, 'p99')), unit: 'x' },
    );
    notes.push(
      `Driver: per round, saturated (${SATURATE}/s asked, ${SECONDS} s) then held (${HOLD}/s) with 1 worker and with ${ALL_WORKERS}, the order alternating; per round saturated rates (1/${ALL_WORKERS}): ${one.map((run, i) => `${Math.round(run.rate)}/${Math.round(all[i]?.rate ?? 0)}`).join(' ')}; busy shares of the last ${ALL_WORKERS}-worker run: ${all.at(-1)?.busy.join(', ')}.`,
    );

    const base = process.env.BENCH_BASE_BIN;
    const builds: Array<[string, string]> = [...(base ? ([['base', dirname(dirname(base))]] as Array<[string, string]>) : []), ['this', THIS_ROOT]];
    const serve = new Map<string, { saturated: ServeRun[]; fixed: ServeRun[] }>(builds.map(([name]) => [name, { saturated: [], fixed: [] }]));
    await interleaved(
      builds.map(([name]) => name),
      async (name) => {
        const root = builds.find(([n]) => n === name)![1];
        serve.get(name)!.saturated.push(await serveRun(root, SERVE_SATURATE));
        serve.get(name)!.fixed.push(await serveRun(root, SERVE_FIXED));
      },
    );
    const medServe = (runs: ServeRun[], key: 'rate' | 'cpuUsPerWebhook'): number => median(runs.map((run) => run[key]));
    for (const [name] of builds) {
      const runs = serve.get(name)!;
      metrics.push(
        { label: `serve ${name}: saturated webhooks/s (median)`, value: Math.round(medServe(runs.saturated, 'rate')), unit: '/s' },
        { label: `serve ${name}: at ${SERVE_FIXED}/s achieved (median)`, value: Math.round(medServe(runs.fixed, 'rate')), unit: '/s' },
        { label: `serve ${name}: CPU per webhook at ${SERVE_FIXED}/s (median)`, value: round1(medServe(runs.fixed, 'cpuUsPerWebhook')), unit: 'µs' },
        { label: `serve ${name}: CPU per webhook saturated (median)`, value: round1(medServe(runs.saturated, 'cpuUsPerWebhook')), unit: 'µs' },
        { label: `serve ${name}: answers other than 200`, value: [...runs.saturated, ...runs.fixed].reduce((sum, run) => sum + run.non200, 0), unit: 'answers' },
      );
    }
    if (base) {
      const [b, t] = [serve.get('base')!, serve.get('this')!];
      metrics.push(
        { label: 'serve: saturated webhooks/s this / base', value: ratio(medServe(t.saturated, 'rate'), medServe(b.saturated, 'rate')), unit: 'x' },
        { label: `serve: CPU per webhook at ${SERVE_FIXED}/s this / base`, value: ratio(medServe(t.fixed, 'cpuUsPerWebhook'), medServe(b.fixed, 'cpuUsPerWebhook')), unit: 'x' },
      );
      notes.push(`Serve per round (saturated /s, base/this): ${b.saturated.map((run, i) => `${Math.round(run.rate)}/${Math.round(t.saturated[i]?.rate ?? 0)}`).join(' ')}; CPU µs per webhook at ${SERVE_FIXED}/s (base/this): ${b.fixed.map((run, i) => `${round1(run.cpuUsPerWebhook)}/${round1(t.fixed[i]?.cpuUsPerWebhook ?? 0)}`).join(' ')}.`);
    } else notes.push('No BENCH_BASE_BIN: only this checkout\'s reference was measured.');
    notes.push(
      `${ROUNDS} interleaved rounds of ${SECONDS} s runs. Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
    );
    return { name: 'hot-path', metrics, notes };
  },
};
