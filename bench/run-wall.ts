/**
 * What a full `access-conformance run` costs: wall time, CPU (user + system, every thread) and peak resident
 * memory of the CLI process, median of BENCH_RUN_REPEATS runs (default 5), in two settings:
 *
 * - **embedded**: `node bin/access-conformance.js run`, as a user runs it: node start-up, the embedded
 *   reference (tenant, keys, local CA) in the same process, both phases, the report;
 * - **harness alone**: `run --profile` against a `serve` started beforehand in another process (a fresh one
 *   per run, so the clock the previous run moved is not carried over), which leaves only the harness's cost.
 *
 * CPU and peak RSS come from the processes themselves (bench/rusage-preload.ts: getrusage at exit of the
 * CLI and of its supervised child, CPU added, the larger peak: what /usr/bin/time -v prints for the tree). Every run must exit 0; the json report gives the totals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Bench, type BenchMetric, type BenchReport } from './registry.js';

/** The CLI measured: this checkout's, or another build's (BENCH_BIN, for a before/after on one machine). */
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
/** A URL, which `--import` takes on every platform. */
const PRELOAD = new URL('./rusage-preload.js', import.meta.url).href;
const REPEATS = Math.max(1, Number(process.env.BENCH_RUN_REPEATS ?? 5));
/** A run that takes longer than this is stuck, not slow. */
const RUN_LIMIT_MS = 600_000;
const SERVE_READY_MS = 60_000;

export interface RunCost {
  wallMs: number;
  cpuMs: number;
  peakRssMiB: number;
  /** The same, in MB (10^6 bytes), the unit of the target. */
  peakRssMB: number;
  checks: number;
  passed: number;
}

function spawnMeasured(args: string[], dir: string): Promise<RunCost> {
  return spawnCli(BIN, args, dir);
}

interface Usage {
  userMs: number;
  systemMs: number;
  maxRssKiB: number;
}

/** The CPU of every process of the run added up, and the largest peak RSS among them (rusage-preload.ts). */
export function processTreeUsage(usageFile: string): Usage {
  const dir = dirname(usageFile);
  const files = readdirSync(dir).filter((name) => name.startsWith(`${basename(usageFile)}.`));
  if (files.length === 0) throw new Error(`no resource usage was written (${usageFile}.<pid>)`);
  const usages = files.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Usage);
  return {
    userMs: usages.reduce((sum, u) => sum + u.userMs, 0),
    systemMs: usages.reduce((sum, u) => sum + u.systemMs, 0),
    maxRssKiB: Math.max(...usages.map((u) => u.maxRssKiB)),
  };
}

/** One `run` of the CLI at `bin` (this checkout's or another build's), measured; rejects unless it exits 0. */
export function spawnCli(bin: string, args: string[], dir: string): Promise<RunCost> {
  const usageFile = join(dir, 'rusage.json');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PRELOAD, bin, ...args, '--reporter', 'json', '--out', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', AC_BENCH_RUSAGE_OUT: usageFile },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = Math.round(performance.now() - started);
      if (code !== 0) {
        reject(new Error(`run exited with ${code} after ${wallMs} ms:\n${output}`));
        return;
      }
      const usage = processTreeUsage(usageFile);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { totals: { passed: number; selected: number } };
      resolve({
        wallMs,
        cpuMs: Math.round(usage.userMs + usage.systemMs),
        peakRssMiB: Math.round(usage.maxRssKiB / 1024),
        peakRssMB: Math.round((usage.maxRssKiB * 1024) / 1e6),
        checks: report.totals.selected,
        passed: report.totals.passed,
      });
    });
  });
}

/** How to stop a target process the bench started: SIGTERM, SIGKILL after 10 s, resolved once it exited. */
export function stopperOf(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
}

/** Starts `serve --hooks`, waits for its profile, and returns how to stop it. */
async function startServe(dir: string): Promise<{ profile: string; stop(): Promise<void> }> {
  const profile = join(dir, 'serve.target.json');
  const child = spawn(process.execPath, [BIN, 'serve', '--hooks', '--profile-out', profile], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const stop = stopperOf(child);
  const deadline = Date.now() + SERVE_READY_MS;
  // serve prints its addresses once the profile is written; polling is bounded by the deadline.
  while (!existsSync(profile) || !output.includes('\n')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`serve did not become ready: ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { profile, stop };
}

export async function measureEmbedded(dir: string, seed: string): Promise<RunCost> {
  return spawnMeasured(['run', '--seed', seed], dir);
}

export async function measureAgainstServe(dir: string, seed: string): Promise<RunCost> {
  const serve = await startServe(dir);
  try {
    return await spawnMeasured(['run', '--profile', serve.profile, '--seed', seed], dir);
  } finally {
    await serve.stop();
  }
}

function metrics(setting: string, runs: readonly RunCost[]): BenchMetric[] {
  const pick = (key: 'wallMs' | 'cpuMs' | 'peakRssMiB' | 'peakRssMB'): number[] => runs.map((run) => run[key]);
  return [
    { label: `${setting}: wall (median)`, value: Math.round(median(pick('wallMs'))), unit: 'ms' },
    { label: `${setting}: wall (min–max)`, value: Math.min(...pick('wallMs')), unit: `ms – ${Math.max(...pick('wallMs'))} ms` },
    { label: `${setting}: CPU user+sys (median)`, value: Math.round(median(pick('cpuMs'))), unit: 'ms' },
    { label: `${setting}: peak RSS (median)`, value: Math.round(median(pick('peakRssMiB'))), unit: `MiB = ${Math.round(median(pick('peakRssMB')))} MB` },
    { label: `${setting}: peak RSS (min–max)`, value: Math.min(...pick('peakRssMiB')), unit: `MiB – ${Math.max(...pick('peakRssMiB'))} MiB` },
    { label: `${setting}: checks passed / selected`, value: runs[runs.length - 1]!.passed, unit: `/ ${runs[runs.length - 1]!.checks}` },
  ];
}

export const runWallBench: Bench = {
  name: 'run-wall',
  description: `wall, CPU and peak RSS of a full \`run\`: embedded reference, and the harness alone against \`serve\` (median of ${REPEATS})`,
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-run-'));
    const embedded: RunCost[] = [];
    const harness: RunCost[] = [];
    const loadBefore = loadavg()[0]!;
    try {
      // Interleaved, so both settings share the machine's conditions.
      for (let i = 0; i < REPEATS; i += 1) {
        for (const [list, measure, name] of [[embedded, measureEmbedded, 'embedded'], [harness, measureAgainstServe, 'serve']] as const) {
          const runDir = join(dir, `${name}-${i}`);
          mkdirSync(runDir, { recursive: true });
          list.push(await measure(runDir, `bench-${i}`));
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return {
      name: 'run-wall',
      metrics: [...metrics('embedded', embedded), ...metrics('harness alone (vs serve)', harness)],
      notes: [
        `${REPEATS} interleaved runs of each: \`node bin/access-conformance.js run --seed bench-N\` (embedded) and \`run --profile <serve's profile>\` against a fresh \`serve --hooks\` (harness alone); default --concurrency; every run exited 0.`,
        'Wall time is the spawned process from start to exit; CPU (user + system, all threads) and peak RSS are the process\'s own getrusage at exit (bench/rusage-preload.ts), as /usr/bin/time -v reports them.',
        `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before and ${loadavg()[0]!.toFixed(1)} after. On a shared machine wall times vary; CPU and RSS much less.`,
      ],
    };
  },
};
