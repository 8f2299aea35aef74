/**
 * `npm run bench -- speed` (issue 40): this checkout side by side with another build (BENCH_BASE_BIN, e.g.
 * a worktree of 4debbe3 built with `npm run build:all`: `git worktree add /tmp/base 4debbe3`, symlink its
 * node_modules, build), in interleaved pairs so both share the machine's conditions, medians and ratios:
 *
 * - the embedded `run` (387 results): wall, CPU of the process tree, peak RSS;
 * - `run --only WH-HMAC-01` (one check): wall;
 * - the scale runs: `run --profile <scale target> --openapi <N generated operations>` against the reference
 *   behind a path rewrite (bench/scale-target.ts, a fresh one per run), N from BENCH_SCALE_OPERATIONS
 *   (default 100,1000,20000): exit code, wall, wall per operation, peak RSS, whether report.json was written
 *   and how many results it holds. A run that crashes or is refused is recorded as it ended, not retried.
 *
 * BENCH_SPEED_REPEATS pairs for the first two (default 5), BENCH_SCALE_REPEATS for the scale runs
 * (default 1: a thousand operations take minutes). Without BENCH_BASE_BIN only this checkout is measured.
 */
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Bench, type BenchMetric, type BenchReport } from './registry.js';
import { processTreeUsage, spawnCli, stopperOf, type RunCost } from './run-wall.js';

const THIS_BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
const PRELOAD = new URL('./rusage-preload.js', import.meta.url).href;
const TARGET = fileURLToPath(new URL('./scale-target.js', import.meta.url));
const REPEATS = Math.max(1, Number(process.env.BENCH_SPEED_REPEATS ?? 5));
const SCALE_REPEATS = Math.max(1, Number(process.env.BENCH_SCALE_REPEATS ?? 1));
const SCALE_SIZES = (process.env.BENCH_SCALE_OPERATIONS ?? '100,1000,20000').split(',').map(Number).filter((n) => n > 0);
/** A scale run longer than this is stuck, not slow (the harness's own default deadline for 1,000 is 9 min). */
const SCALE_LIMIT_MS = 20 * 60_000;

interface Build {
  name: string;
  bin: string;
}

interface ScaleRun {
  operations: number;
  exitCode: number | null;
  wallMs: number;
  peakRssMB: number;
  cpuMs: number;
  reportWritten: boolean;
  results: number;
  /** The last line of stderr that names an error, shortened. */
  error?: string;
}

function builds(): Build[] {
  const base = process.env.BENCH_BASE_BIN;
  return [...(base ? [{ name: 'base', bin: base }] : []), { name: 'this', bin: THIS_BIN }];
}

/** Starts a scale target with `count` generated operations; resolves with its files and how to stop it. */
function startScaleTarget(dir: string, count: number): Promise<{ profilePath: string; openapiPath: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = fork(TARGET, [dir, String(count)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    const stop = stopperOf(child);
    child.once('message', (message: { profilePath: string; openapiPath: string }) => resolve({ ...message, stop }));
    child.once('exit', (code) => reject(new Error(`the scale target ended with ${code}: ${stderr}`)));
  });
}

/** One scale run, measured as it ends, whatever the exit code. */
function scaleRun(bin: string, count: number, dir: string, target: { profilePath: string; openapiPath: string }): Promise<ScaleRun> {
  const out = join(dir, 'out');
  const usageFile = join(dir, 'rusage.json');
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PRELOAD, bin, 'run', '--profile', target.profilePath, '--openapi', target.openapiPath, '--seed', 'scale', '--reporter', 'json', '--reporter', 'html', '--reporter', 'junit', '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', AC_BENCH_RUSAGE_OUT: usageFile },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), SCALE_LIMIT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = Math.round(performance.now() - started);
      let usage = { userMs: 0, systemMs: 0, maxRssKiB: 0 };
      try {
        usage = processTreeUsage(usageFile);
      } catch {
        // A process killed by the kernel writes nothing: its RSS is then unknown (0).
      }
      const reportPath = join(out, 'report.json');
      let results = 0;
      if (existsSync(reportPath)) {
        try {
          results = (JSON.parse(readFileSync(reportPath, 'utf8')) as { results?: unknown[] }).results?.length ?? 0;
        } catch {
          results = 0;
        }
      }
      const errorLine = stderr.split('\n').reverse().find((line) => /error|Error|exited/.test(line));
      resolve({
        operations: count,
        exitCode: code,
        wallMs,
        cpuMs: Math.round(usage.userMs + usage.systemMs),
        peakRssMB: Math.round((usage.maxRssKiB * 1024) / 1e6),
        reportWritten: existsSync(reportPath),
        results,
        ...(errorLine ? { error: errorLine.trim().slice(0, 240) } : {}),
      });
    });
  });
}

const ratio = (a: number, b: number): string => (b > 0 ? (a / b).toFixed(2) : 'n/a');

export const speedBench: Bench = {
  name: 'speed',
  description: 'issue 40: embedded run, one-check run and 100/1,000/20,000-operation runs, this checkout against BENCH_BASE_BIN in interleaved pairs',
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-speed-'));
    const loadBefore = loadavg()[0]!;
    const list = builds();
    const embedded = new Map<string, RunCost[]>(list.map((b) => [b.name, []]));
    const oneCheck = new Map<string, RunCost[]>(list.map((b) => [b.name, []]));
    const scale = new Map<string, ScaleRun[]>(list.map((b) => [b.name, []]));
    try {
      for (let i = 0; i < REPEATS; i += 1) {
        // Alternating which build goes first, so neither always runs on the warmer cache.
        const order = i % 2 === 0 ? list : [...list].reverse();
        for (const build of order) {
          const runDir = join(dir, `${build.name}-embedded-${i}`);
          mkdirSync(runDir, { recursive: true });
          embedded.get(build.name)!.push(await spawnCli(build.bin, ['run', '--seed', `bench-${i}`], runDir));
          const oneDir = join(dir, `${build.name}-one-${i}`);
          mkdirSync(oneDir, { recursive: true });
          oneCheck.get(build.name)!.push(await spawnCli(build.bin, ['run', '--only', 'WH-HMAC-01', '--seed', `bench-${i}`], oneDir));
        }
      }
      for (const count of SCALE_SIZES) {
        for (let i = 0; i < SCALE_REPEATS; i += 1) {
          for (const build of i % 2 === 0 ? list : [...list].reverse()) {
            const runDir = join(dir, `${build.name}-scale-${count}-${i}`);
            mkdirSync(runDir, { recursive: true });
            // A fresh target per run: a run moves the target's clock.
            const target = await startScaleTarget(runDir, count);
            try {
              const run = await scaleRun(build.bin, count, runDir, target);
              scale.get(build.name)!.push(run);
              process.stdout.write(`  scale ${count} (${build.name}): exit ${run.exitCode}, ${run.wallMs} ms, ${run.peakRssMB} MB, report ${run.reportWritten ? `${run.results} results` : 'none'}${run.error ? `; ${run.error}` : ''}\n`);
            } finally {
              await target.stop();
            }
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const metrics: BenchMetric[] = [];
    const med = (runs: RunCost[], key: 'wallMs' | 'cpuMs' | 'peakRssMB'): number => Math.round(median(runs.map((run) => run[key])));
    for (const build of list) {
      const e = embedded.get(build.name)!;
      const o = oneCheck.get(build.name)!;
      metrics.push(
        { label: `${build.name}: embedded run wall (median)`, value: med(e, 'wallMs'), unit: 'ms' },
        { label: `${build.name}: embedded run CPU (median)`, value: med(e, 'cpuMs'), unit: 'ms' },
        { label: `${build.name}: embedded run peak RSS (median)`, value: med(e, 'peakRssMB'), unit: 'MB' },
        { label: `${build.name}: embedded run results passed`, value: e.at(-1)!.passed, unit: `/ ${e.at(-1)!.checks}` },
        { label: `${build.name}: run --only WH-HMAC-01 wall (median)`, value: med(o, 'wallMs'), unit: 'ms' },
        { label: `${build.name}: run --only WH-HMAC-01 CPU (median)`, value: med(o, 'cpuMs'), unit: 'ms' },
      );
      for (const run of scale.get(build.name)!) {
        metrics.push(
          { label: `${build.name}: ${run.operations} operations: exit`, value: run.exitCode ?? -1, unit: run.reportWritten ? `report.json with ${run.results} results` : 'no report.json' },
          { label: `${build.name}: ${run.operations} operations: wall`, value: run.wallMs, unit: `ms (${Math.round(run.wallMs / run.operations)} ms per operation)` },
          { label: `${build.name}: ${run.operations} operations: CPU`, value: run.cpuMs, unit: `ms (${Math.round(run.cpuMs / run.operations)} ms per operation)` },
          { label: `${build.name}: ${run.operations} operations: peak RSS`, value: run.peakRssMB, unit: 'MB' },
        );
      }
    }
    const notes = [
      `${REPEATS} interleaved pairs (the order alternating) of \`run --seed bench-N\` and \`run --only WH-HMAC-01\`; ${SCALE_REPEATS} scale run(s) per size and build, each against a fresh scale target (bench/scale-target.ts).`,
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
    ];
    if (list.length === 2) {
      const [base, mine] = list.map((b) => b.name) as [string, string];
      notes.push(
        `ratios this / base (medians): embedded wall ${ratio(med(embedded.get(mine)!, 'wallMs'), med(embedded.get(base)!, 'wallMs'))}, CPU ${ratio(med(embedded.get(mine)!, 'cpuMs'), med(embedded.get(base)!, 'cpuMs'))}, peak RSS ${ratio(med(embedded.get(mine)!, 'peakRssMB'), med(embedded.get(base)!, 'peakRssMB'))}; one-check wall ${ratio(med(oneCheck.get(mine)!, 'wallMs'), med(oneCheck.get(base)!, 'wallMs'))}, CPU ${ratio(med(oneCheck.get(mine)!, 'cpuMs'), med(oneCheck.get(base)!, 'cpuMs'))}`,
        `per pair (wall ms, base/this): embedded ${embedded.get(base)!.map((r, i) => `${r.wallMs}/${embedded.get(mine)![i]?.wallMs}`).join(' ')}; one-check ${oneCheck.get(base)!.map((r, i) => `${r.wallMs}/${oneCheck.get(mine)![i]?.wallMs}`).join(' ')}`,
      );
      for (const run of [...scale.get(base)!, ...scale.get(mine)!]) if (run.error) notes.push(`${run.operations} operations: ${run.error}`);
    }
    return { name: 'speed', metrics, notes };
  },
};
