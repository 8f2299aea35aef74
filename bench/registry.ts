/**
 * The benchmarks `npm run bench` runs. To add one: write bench/<name>.ts exporting a {@link Bench}, import it
 * in bench/run-bench.ts and append it to BENCHES there. Each bench reports named metrics; run-bench prints
 * them and writes reports/bench/<name>.json.
 */
export interface BenchMetric {
  label: string;
  value: number;
  unit: string;
}

export interface BenchReport {
  /** The entry it writes in bench/figures.json: the bench's name, or one of its parts' (Bench.parts). */
  name: string;
  /** How to measure this entry again, when it is not `npm run bench -- <name>` (a part of a bench). */
  command?: string;
  metrics: BenchMetric[];
  /** How it was measured, in a sentence or two each (machine, sizes, caveats). */
  notes: string[];
}

export interface Bench {
  /** kebab-case; `npm run bench -- <name>` runs only this one. */
  name: string;
  description: string;
  /**
   * A bench measured in parts that can be run apart (hot-path: the driver, the reference): each part's
   * report names its own entry, with its own record of how, so running one part keeps the other's figures.
   * Once every part has its entry, an entry under the bench's own name (written before it had parts) goes.
   */
  parts?: readonly string[];
  /** One report, or one per part it ran. */
  run(): Promise<BenchReport | BenchReport[]>;
}

/** The median of some measurements (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
