/**
 * `npm run bench -- linear-costs`: the redactor and the control gate at 300 and 1,000 operations
 * (bench/linear-costs-child.ts, a fresh process each), in this checkout and, with BENCH_BASE_ROOT (a built
 * checkout of another commit), in that one, interleaved. Linear costs grow about 3.3× from 300 to 1,000;
 * quadratic ones about 11×.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Bench, BenchMetric, BenchReport } from './registry.js';

const CHILD = fileURLToPath(new URL('./linear-costs-child.js', import.meta.url));
const THIS_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIZES = [300, 1000];

interface Sample {
  operations: number;
  redactMs: number;
  gateMs: number;
}

export const linearCostsBench: Bench = {
  name: 'linear-costs',
  description: 'redaction with a token per operation and the positive-control gate, at 300 and 1,000 operations (this checkout and BENCH_BASE_ROOT)',
  async run(): Promise<BenchReport> {
    const roots = [...(process.env.BENCH_BASE_ROOT ? [['base', process.env.BENCH_BASE_ROOT] as const] : []), ['this', THIS_ROOT] as const];
    const metrics: BenchMetric[] = [];
    for (const size of SIZES) {
      for (const [name, root] of roots) {
        const sample = JSON.parse(execFileSync(process.execPath, [CHILD, root, String(size)], { encoding: 'utf8', timeout: 600_000 }).trim()) as Sample;
        metrics.push(
          { label: `${name}: redaction, ${size} operations`, value: sample.redactMs, unit: 'ms' },
          { label: `${name}: control gate, ${size} operations`, value: sample.gateMs, unit: 'ms' },
        );
      }
    }
    return { name: 'linear-costs', metrics, notes: ['one fresh process per figure; redaction: one token registered per operation, a 4 KB page redacted 5 times after each; gate: OPS-01/02/13 of every operation held, then each OPS-18 arrives'] };
  },
};
