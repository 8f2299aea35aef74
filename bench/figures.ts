/**
 * bench/figures.json: the last figures each bench measured, per bench and metric label, with the record of
 * how: when (`at`), on which Node, at which commit, on what machine (cores and load average when it ran) and
 * by what method (the bench's own notes). Docs, BENCHMARKS.md included, quote a figure as the number
 * followed by `<!-- bench: NAME, LABEL -->` (scripts/doc-counts.ts checks and rewrites them; a measured
 * figure in BENCHMARKS.md without its marker fails the fast lane), so no measured figure is typed by hand.
 *
 * The writer API, for any bench (`npm run bench` through bench/run-bench.ts, or a bench script of its own,
 * e.g. the load driver's):
 *
 *   const figures = readFigures();                                   // {} when the file does not exist
 *   writeFigures(withFigures(figures, report, new Date().toISOString(), measuredHere(method)));
 *
 * `report` is a BenchReport (bench/registry.ts: name, metrics with label/value/unit, notes). The fourth
 * argument is optional (the three-argument call of earlier benches still works, recording commit and
 * machine itself); `measuredHere()` reads the commit from git and the cores and load average from the OS.
 * A bench's entry is replaced whole; the other benches' entries are kept as they are, old ones included
 * (entries written before the record grew have no `commit`/`machine`/`method`: readers must allow that).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchReport } from './registry.js';

export const FIGURES_FILE = 'bench/figures.json';

export interface Figure {
  value: number;
  unit: string;
}

/** The machine a bench ran on, as it was then: the figures of a busy shared machine say so. */
export interface BenchMachine {
  cores: number;
  /** os.loadavg() when the bench finished: 1, 5 and 15 minutes. */
  loadAverage: [number, number, number];
  platform: string;
}

/** How a bench's figures were measured (all optional: entries older than the record have none of it). */
export interface BenchContext {
  /** The commit the bench measured (`git rev-parse HEAD`, with `+changes` when the tree was dirty). */
  commit?: string;
  machine?: BenchMachine;
  /** How, in the bench's own words (its notes: rounds, sizes, medians, caveats). */
  method?: string[];
}

export interface BenchEntry extends BenchContext {
  at: string;
  /** How to measure it again, when not `npm run bench -- <entry name>` (a part of a bench). */
  command?: string;
  node: string;
  metrics: Record<string, Figure>;
}

export type Figures = Record<string, BenchEntry>;

/** The commit and the machine of this moment, with the method given (default: none). */
export function measuredHere(method?: readonly string[], root = process.cwd()): BenchContext {
  let commit: string | undefined;
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    commit = `${head}${dirty ? '+changes' : ''}`;
  } catch {
    commit = undefined;
  }
  const load = loadavg().map((value) => Math.round(value * 100) / 100) as [number, number, number];
  return {
    ...(commit ? { commit } : {}),
    machine: { cores: cpus().length, loadAverage: load, platform: `${process.platform}-${process.arch}` },
    ...(method ? { method: [...method] } : {}),
  };
}

/**
 * `figures` with `report`'s metrics in place of that bench's earlier ones, and the record of how they were
 * measured: `context` when given, else this moment's commit and machine and the report's notes as method.
 */
export function withFigures(figures: Figures, report: BenchReport, at: string, context: BenchContext = measuredHere(report.notes)): Figures {
  const metrics = Object.fromEntries(report.metrics.map((metric) => [metric.label, { value: metric.value, unit: metric.unit }]));
  const entry: BenchEntry = { at, node: process.version, ...(report.command ? { command: report.command } : {}), ...context, metrics };
  const next = { ...figures, [report.name]: entry };
  return Object.fromEntries(Object.keys(next).sort().map((name) => [name, next[name]!]));
}

/**
 * `figures` without the entry under a bench's own name once each of its parts has an entry of its own (the
 * whole entry was written before the bench had parts; until then it holds the figures of the parts not yet
 * measured apart, with their record).
 */
export function withParts(figures: Figures, bench: { name: string; parts?: readonly string[] }): Figures {
  if (!bench.parts || !(bench.name in figures) || !bench.parts.every((part) => part in figures)) return figures;
  return Object.fromEntries(Object.entries(figures).filter(([name]) => name !== bench.name));
}

/** bench/figures.json under `root` ({} when it does not exist yet). */
export function readFigures(root = process.cwd()): Figures {
  const path = join(root, FIGURES_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Figures) : {};
}

export function writeFigures(figures: Figures, root = process.cwd()): void {
  writeFileSync(join(root, FIGURES_FILE), `${JSON.stringify(figures, null, 2)}\n`);
}
