/**
 * Wall time of a full `access-conformance run` against the embedded reference: the CLI is spawned as a user
 * would run it (node bin/access-conformance.js run), BENCH_RUN_REPEATS times (default 3), and the median is
 * reported. Each run must exit 0; the json report gives the engine's own duration (preflight to verdict,
 * without node start-up and the sandbox's key generation) and the totals.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Bench, type BenchReport } from './registry.js';

const BIN = fileURLToPath(new URL('../../bin/access-conformance.js', import.meta.url));
const REPEATS = Math.max(1, Number(process.env.BENCH_RUN_REPEATS ?? 3));
const CONCURRENCY = Number(process.env.BENCH_RUN_CONCURRENCY ?? 2);
/** A run that takes longer than this is stuck, not slow. */
const RUN_LIMIT_MS = 600_000;

interface OneRun {
  wallMs: number;
  engineMs: number;
  passed: number;
  skipped: number;
  checks: number;
}

function runOnce(outDir: string, seed: string): Promise<OneRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'run', '--seed', seed, '--reporter', 'json', '--out', outDir, '--concurrency', String(CONCURRENCY)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = Math.round(performance.now() - started);
      if (code !== 0) {
        reject(new Error(`run exited with ${code} after ${wallMs} ms:\n${output.slice(-2000)}`));
        return;
      }
      const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as {
        durationMs: number;
        totals: { passed: number; skipped: number; selected: number };
      };
      resolve({ wallMs, engineMs: report.durationMs, passed: report.totals.passed, skipped: report.totals.skipped, checks: report.totals.selected });
    });
  });
}

export const runWallBench: Bench = {
  name: 'run-wall',
  description: `wall time of a full \`run\` against the embedded reference (spawned CLI, median of ${REPEATS})`,
  async run(): Promise<BenchReport> {
    const dir = mkdtempSync(join(tmpdir(), 'ac-bench-run-'));
    const runs: OneRun[] = [];
    try {
      for (let i = 0; i < REPEATS; i += 1) runs.push(await runOnce(join(dir, `run-${i}`), `bench-${i}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const walls = runs.map((r) => r.wallMs);
    const last = runs[runs.length - 1]!;
    return {
      name: 'run-wall',
      metrics: [
        { label: 'full run, wall time (median)', value: Math.round(median(walls)), unit: 'ms' },
        { label: 'full run, wall time (min)', value: Math.min(...walls), unit: 'ms' },
        { label: 'full run, wall time (max)', value: Math.max(...walls), unit: 'ms' },
        { label: 'engine time, preflight to verdict (median)', value: Math.round(median(runs.map((r) => r.engineMs))), unit: 'ms' },
        { label: 'checks selected', value: last.checks, unit: 'checks' },
        { label: 'checks passed', value: last.passed, unit: 'checks' },
        { label: 'checks skipped', value: last.skipped, unit: 'checks' },
      ],
      notes: [
        `${REPEATS} runs of \`node bin/access-conformance.js run --reporter json --concurrency ${CONCURRENCY}\`, each with its own seed and a fresh embedded reference; every run exited 0.`,
        'Wall time includes node start-up, tenant generation (key pairs, local CA), vitest start-up for both phases and report writing.',
        `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; shared machines make these numbers noisy.`,
      ],
    };
  },
};
