/**
 * bench/figures.json: the last figures `npm run bench` measured, per bench and metric label, with when and
 * on which Node. Docs quote a figure as the number followed by `<!-- bench: NAME, LABEL -->`
 * (scripts/doc-counts.ts checks and rewrites them), so no measured figure is copied by hand.
 */
import type { BenchReport } from './registry.js';

export const FIGURES_FILE = 'bench/figures.json';

export interface Figure {
  value: number;
  unit: string;
}

export type Figures = Record<string, { at: string; node: string; metrics: Record<string, Figure> }>;

/** `figures` with `report`'s metrics in place of that bench's earlier ones. */
export function withFigures(figures: Figures, report: BenchReport, at: string): Figures {
  const metrics = Object.fromEntries(report.metrics.map((metric) => [metric.label, { value: metric.value, unit: metric.unit }]));
  const next = { ...figures, [report.name]: { at, node: process.version, metrics } };
  return Object.fromEntries(Object.keys(next).sort().map((name) => [name, next[name]!]));
}
