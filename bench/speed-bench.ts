/**
 * `npm run bench -- speed` (issue 40): this checkout side by side with another build (BENCH_BASE_BIN, e.g.
 * a worktree of 4debbe3 built with `npm run build:all`: `git worktree add /tmp/base 4debbe3`, symlink its
 * node_modules, build), in interleaved pairs so both share the machine's conditions, medians and ratios:
 *
 * - the embedded `run` (387 results): wall, CPU of the process tree, peak RSS;
 * - `run --only WH-HMAC-01` (one check): wall, CPU, peak RSS; and its timeline (issue 46), from
 *   `DEBUG=access-conformance` in separate interleaved pairs: the process's spawn to its first phase, the
 *   keys phase, and the checks phase;
 * - whether the embedded runs of both builds gave the same results (every result key with its state and
 *   message);
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


/** A one-check run's timeline, from its `DEBUG=access-conformance` lines (epoch ms, spawn to each phase). */
interface Timeline {
  startToFirstPhaseMs: number;
  keysMs: number;
  checksMs: number;
}

/** `[room hh:mm:ss.mmm] phase: NAME` lines as epoch ms, the day taken from `spawnedAt` (UTC). */
function phaseTimes(stderr: string, spawnedAt: number): Array<{ phase: string; at: number }> {
  const day = new Date(spawnedAt).toISOString().slice(0, 10);
  const times: Array<{ phase: string; at: number }> = [];
  for (const match of stderr.matchAll(/^\[\w+ (\d\d:\d\d:\d\d\.\d{3})\] phase: ([\w ]+?)(?: \(\+\d+ ms\))?$/gm)) {
    let at = Date.parse(`${day}T${match[1]}Z`);
    // A run that crosses midnight UTC.
    if (at < spawnedAt - 60_000) at += 86_400_000;
    times.push({ phase: match[2]!, at });
  }
  return times;
}

/** One `run --only WH-HMAC-01` with DEBUG on: its phases' times. */
function timelineRun(bin: string, dir: string, seed: string): Promise<Timeline> {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, [bin, 'run', '--only', 'WH-HMAC-01', '--seed', seed, '--reporter', 'json', '--out', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', DEBUG: 'access-conformance' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const times = phaseTimes(stderr, spawnedAt);
      const at = (phase: string): number | undefined => times.find((time) => time.phase === phase)?.at;
      const after = (phase: string): number | undefined => times[times.findIndex((time) => time.phase === phase) + 1]?.at;
      const keys = at('keys');
      const checks = at('checks');
      if (code !== 0 || times.length === 0 || keys === undefined || checks === undefined) {
        reject(new Error(`one-check timeline run exited with ${code}; phases seen: ${times.map((time) => time.phase).join(', ')}`));
        return;
      }
      resolve({ startToFirstPhaseMs: times[0]!.at - spawnedAt, keysMs: (after('keys') ?? keys) - keys, checksMs: (after('checks') ?? checks) - checks });
    });
  });
}

/** Every result of a run's report.json as `key state message`, sorted: two runs agree when these are equal. */
function resultLines(dir: string): string[] {
  type Result = { id: string; operation?: { method?: string; path?: string }; state: string; failure?: { message: string }; harnessError?: { message: string }; reason?: string };
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: Result[] };
  return report.results
    .map((r) => `${r.id}${r.operation ? `@${r.operation.method} ${r.operation.path}` : ''} ${r.state} ${r.failure?.message ?? r.harnessError?.message ?? r.reason ?? ''}`)
    .sort();
}

/** How many of `a`'s lines `b` lacks, and the other way round. */
function differing(a: readonly string[], b: readonly string[]): number {
  const inB = new Set(b);
  const inA = new Set(a);
  return a.filter((line) => !inB.has(line)).length + b.filter((line) => !inA.has(line)).length;
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
    const timelines = new Map<string, Timeline[]>(list.map((b) => [b.name, []]));
    /** The embedded runs' results (same seed for both builds in a pair): lines no other build's run of that seed has. */
    const resultDiffs: number[] = [];
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
          const lineDir = join(dir, `${build.name}-timeline-${i}`);
          mkdirSync(lineDir, { recursive: true });
          timelines.get(build.name)!.push(await timelineRun(build.bin, lineDir, `bench-${i}`));
        }
        if (list.length === 2) resultDiffs.push(differing(...(list.map((build) => resultLines(join(dir, `${build.name}-embedded-${i}`))) as [string[], string[]])));
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
        { label: `${build.name}: run --only WH-HMAC-01 peak RSS (median)`, value: med(o, 'peakRssMB'), unit: 'MB' },
      );
      const t = timelines.get(build.name)!;
      const tmed = (key: keyof Timeline): number => Math.round(median(t.map((line) => line[key])));
      metrics.push(
        { label: `${build.name}: run --only WH-HMAC-01 spawn to first phase (median)`, value: tmed('startToFirstPhaseMs'), unit: 'ms' },
        { label: `${build.name}: run --only WH-HMAC-01 keys phase (median)`, value: tmed('keysMs'), unit: 'ms' },
        { label: `${build.name}: run --only WH-HMAC-01 checks phase (median)`, value: tmed('checksMs'), unit: 'ms' },
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
      const share = (key: 'wallMs' | 'cpuMs' | 'peakRssMB', runs: Map<string, RunCost[]>): number => Number(ratio(med(runs.get(mine)!, key), med(runs.get(base)!, key)));
      metrics.push(
        { label: 'this / base: embedded run wall', value: share('wallMs', embedded), unit: 'ratio of medians' },
        { label: 'this / base: embedded run CPU', value: share('cpuMs', embedded), unit: 'ratio of medians' },
        { label: 'this / base: run --only WH-HMAC-01 wall', value: share('wallMs', oneCheck), unit: 'ratio of medians' },
        { label: 'this / base: run --only WH-HMAC-01 CPU', value: share('cpuMs', oneCheck), unit: 'ratio of medians' },
        { label: 'embedded results differing from base (key, state, message)', value: Math.max(0, ...resultDiffs), unit: `lines, most in one pair of ${resultDiffs.length}` },
        { label: 'load average (1 min) before / after', value: Number(loadBefore.toFixed(1)), unit: `before; ${loadavg()[0]!.toFixed(1)} after` },
      );
      notes.push(
        `ratios this / base (medians): embedded wall ${ratio(med(embedded.get(mine)!, 'wallMs'), med(embedded.get(base)!, 'wallMs'))}, CPU ${ratio(med(embedded.get(mine)!, 'cpuMs'), med(embedded.get(base)!, 'cpuMs'))}, peak RSS ${ratio(med(embedded.get(mine)!, 'peakRssMB'), med(embedded.get(base)!, 'peakRssMB'))}; one-check wall ${ratio(med(oneCheck.get(mine)!, 'wallMs'), med(oneCheck.get(base)!, 'wallMs'))}, CPU ${ratio(med(oneCheck.get(mine)!, 'cpuMs'), med(oneCheck.get(base)!, 'cpuMs'))}`,
        `per pair (wall ms, base/this): embedded ${embedded.get(base)!.map((r, i) => `${r.wallMs}/${embedded.get(mine)![i]?.wallMs}`).join(' ')}; one-check ${oneCheck.get(base)!.map((r, i) => `${r.wallMs}/${oneCheck.get(mine)![i]?.wallMs}`).join(' ')}`,
      );
      for (const run of [...scale.get(base)!, ...scale.get(mine)!]) if (run.error) notes.push(`${run.operations} operations: ${run.error}`);
    }
    return { name: 'speed', metrics, notes };
  },
};
