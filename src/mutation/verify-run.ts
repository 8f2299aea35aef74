/**
 * Runs the built CLI as child processes, a few at a time: `run --seed S [--fault F] --only IDS --reporter
 * json --out DIR`, one per plan, and reads each report.json back. Separate processes keep every fault's
 * sandbox, vitest worker and module state apart, and use both cores.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonReport } from '../reporters/json-report.js';
import type { RunPlan } from './verify-plan.js';

export interface CliRun {
  plan: RunPlan;
  exitCode: number | null;
  /** The run's report.json (also a RunReport, what judging reads). */
  report?: JsonReport;
  /** Why no report could be read, or the process died. */
  error?: string;
  durationMs: number;
}

export interface CliRunnerOptions {
  /** Path of bin/access-conformance.js. */
  cliPath: string;
  seed: string;
  /** Each run writes to <outDir>/<plan name>/. */
  outDir: string;
  /** Kills a run that takes longer (a hung fault must not hang the test). */
  timeoutMs: number;
  /** Extra `run` flags (e.g. --concurrency). */
  extraArgs?: readonly string[];
}

/** The argument list of one run (exported for docs and tests). */
export function cliArgs(plan: RunPlan, options: Pick<CliRunnerOptions, 'seed' | 'extraArgs'>, out: string): string[] {
  const args = ['run', '--seed', options.seed, '--reporter', 'json', '--out', out];
  if (plan.fault) args.push('--fault', plan.fault.name);
  if (plan.ids.length > 0) args.push('--only', plan.ids.join(','));
  args.push(...(options.extraArgs ?? []));
  return args;
}

export async function runCli(plan: RunPlan, options: CliRunnerOptions): Promise<CliRun> {
  const out = join(options.outDir, plan.name);
  // A report left by an earlier run must never be read as this run's.
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const started = Date.now();
  const output: Buffer[] = [];
  let kept = 0;
  const exitCode = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [options.cliPath, ...cliArgs(plan, options, out)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    const keep = (chunk: Buffer): void => {
      // The console output is only for diagnosing a broken run: keep the first 256 KB.
      if (kept < 256 * 1024) output.push(chunk);
      kept += chunk.length;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  await writeFile(join(out, 'console.txt'), Buffer.concat(output));
  const durationMs = Date.now() - started;
  try {
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as JsonReport;
    return { plan, exitCode, report, durationMs };
  } catch (error) {
    const tail = Buffer.concat(output).toString('utf8').split('\n').slice(-15).join('\n');
    return { plan, exitCode, error: `no report (exit ${String(exitCode)}): ${(error as Error).message}\n${tail}`, durationMs };
  }
}

/** Runs every plan, at most `concurrency` at once, longest (by weight) first; results in plan order. */
export async function runAll(plans: readonly RunPlan[], options: CliRunnerOptions, concurrency: number, onDone?: (run: CliRun) => void): Promise<CliRun[]> {
  const order = plans.map((plan, index) => ({ plan, index })).sort((a, b) => b.plan.weight - a.plan.weight);
  const results: CliRun[] = new Array(plans.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < order.length) {
      const { plan, index } = order[next++]!;
      const run = await runCli(plan, options);
      results[index] = run;
      onDone?.(run);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, order.length)) }, worker));
  return results;
}
