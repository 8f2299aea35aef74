/**
 * One driver run of the hot-path bench (bench/hot-path-bench.ts), in a fresh child process, as a user's
 * `load` runs: `node hot-path-drive.js '<DriveAsk JSON>'`; it posts its DriverRun (IPC) and stops when
 * its parent disconnects.
 *
 * Why a process per run: run in the bench's own long-lived process, one worker sent with code the earlier
 * runs had already optimised, while each run's worker threads start as cold isolates that run their first
 * seconds interpreted and compile on the side (measured: at 1,000/s the V8 compiler threads and baseline
 * code were most of the two-worker run's CPU). Each side starts cold here, as from the command line.
 */
import { readFileSync } from 'node:fs';
import { runLoad } from '../src/load/index.js';
import { benchProfile } from './bench-profile.js';

export interface DriveAsk {
  port: number;
  /** The minimal server's pid: its CPU over the same sending. */
  serverPid: number;
  rate: number;
  workers: number;
  seconds: number;
}

export interface DriverRun {
  rate: number;
  /** The driver's CPU (every thread of this process) per completed request, from the sending on. */
  cpuUsPerRequest: number;
  /** The same over the whole seconds after the first (rows 2 … the last whole one): a thread's start, its JIT warm-up, the drain and the teardown left out. */
  steadyCpuUsPerRequest: number;
  /** The minimal server's CPU (its process, /proc) per completed request. */
  serverCpuUsPerRequest: number;
  p50: number;
  p99: number;
  busy: number[];
}

/** CPU ms of a process so far (utime + stime, clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function drive(ask: DriveAsk): Promise<DriverRun> {
  const cpuNow = (): number => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  // From the `load` phase on: a worker's start and its priming are a fixed cost per run, not per request.
  let before = cpuNow();
  let serverBefore = 0;
  // CPU at each row's close (onProgress runs once a row reaches this thread), for the steady seconds.
  const marks: number[] = [];
  const { report } = await runLoad({
    profile: benchProfile(`http://127.0.0.1:${ask.port}`),
    rate: ask.rate,
    durationMs: ask.seconds * 1000,
    connections: 64,
    maxInFlight: 256,
    bodyBytes: 1024,
    outDir: null,
    seed: 'bench',
    workers: ask.workers,
    onProgress: () => void marks.push(cpuNow()),
    onPhase: (phase) => {
      if (phase !== 'load') return;
      before = cpuNow();
      serverBefore = processCpuMs(ask.serverPid);
    },
  });
  const cpu = cpuNow() - before;
  const serverMs = processCpuMs(ask.serverPid) - serverBefore;
  const completed = Math.max(1, report.counts.completed);
  // The last mark of a whole row: the final row (a sliver, or the drain) has a mark only when ≥ 0.5 s.
  const last = Math.min(marks.length, report.timeline.length - 1) - 1;
  const steadyCompleted = report.timeline.slice(1, last + 1).reduce((sum, row) => sum + row.completed, 0);
  return {
    rate: report.rates.achievedPerSecond,
    cpuUsPerRequest: cpu / completed,
    steadyCpuUsPerRequest: last >= 1 && steadyCompleted > 0 ? (marks[last]! - marks[0]!) / steadyCompleted : Number.NaN,
    serverCpuUsPerRequest: (serverMs * 1000) / completed,
    p50: report.latencyMs.p50,
    p99: report.latencyMs.p99,
    busy: report.driver?.busy ?? [],
  };
}

if (process.send && process.argv[2]) {
  const run = await drive(JSON.parse(process.argv[2]) as DriveAsk);
  process.send(run);
  process.on('disconnect', () => process.exit(0));
}
