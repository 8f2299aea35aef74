/**
 * Totals written in prose (README.md, docs/*.md): "checks 281 requirements", "214 faults", "281 checks: 240
 * MUST, 29 SHOULD, 12 INFO", a sample run's "278 passed, 1 failed, 2 skipped". They went stale once (198
 * and 158 stayed after the catalogue grew), so each is found by its phrasing and compared with the catalogue
 * and the fault registry: `npm run docs` rewrites them, tests/docs/counts.test.ts fails on a stale one.
 *
 * What counts as a claim of a total: a number of checks, requirements, faults or variants that is at least
 * half of that total (a smaller number is a subset: "96 checks together", "20 faults, two per area"), and a
 * "N passed, N failed, N skipped" line whose sum is. BENCHMARKS.md is a log of dated measurements and is
 * not scanned.
 *
 * Measured figures are not copied by hand either: a doc quotes one as the number followed by
 * `<!-- bench: NAME, LABEL -->`, and the number must be the one `npm run bench` last wrote to
 * bench/figures.json for that bench and metric (an unknown bench or label is stale too). `npm run docs`
 * rewrites them with the totals. Test-lane durations and counts (files, tests) are measurements of a
 * moment: they live, dated, in BENCHMARKS.md, and a docs page that states them is flagged.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIGURES_FILE, type Figures } from '../bench/figures.js';
import { listFaults } from '../src/faults/index.js';
import { packageRoot } from '../src/package.js';
import { allRequirements } from '../src/requirements/catalogue.js';

/** One total the docs may state, with the words that name what is counted. */
export interface DocTotal {
  name: string;
  value: number;
  /** Nouns after the number: `281 checks`, `214 faults`. */
  nouns: readonly string[];
}

/** The totals, one row each (a new registry, such as variants, is one more row). */
export function docTotals(): DocTotal[] {
  return [
    { name: 'checks', value: allRequirements().length, nouns: ['checks', 'requirements', 'checks passed'] },
    { name: 'faults', value: listFaults().length, nouns: ['faults'] },
  ];
}

/** The files whose prose is scanned, relative to the package root. */
export function countedDocs(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** A stale count: where, what it says and what it should say. */
export interface StaleCount {
  line: number;
  found: string;
  expected: string;
}

function levels(): Record<'MUST' | 'SHOULD' | 'INFO', number> {
  const out = { MUST: 0, SHOULD: 0, INFO: 0 };
  for (const requirement of allRequirements()) out[requirement.level] += 1;
  return out;
}

type Rewrite = (line: string) => string;

function rewrites(totals: readonly DocTotal[]): Rewrite[] {
  const out: Rewrite[] = [];
  for (const total of totals) {
    for (const noun of total.nouns) {
      // "198 checks", "198 of 198 checks", "selection 198 checks"
      const pattern = new RegExp(`\\b(\\d+)( of )(\\d+) ${noun}\\b|\\b(\\d+) ${noun}\\b`, 'g');
      out.push((line) =>
        line.replace(pattern, (match, a: string | undefined, of: string | undefined, b: string | undefined, single: string | undefined) => {
          if (single !== undefined) return Number(single) * 2 >= total.value ? `${total.value} ${noun}` : match;
          // "N of M checks": M is the total when it is at least half of it; N is what passed, kept.
          return Number(b) * 2 >= total.value ? `${a}${of}${total.value} ${noun}` : match;
        }),
      );
    }
  }
  const checks = totals.find((total) => total.name === 'checks')!.value;
  const byLevel = levels();
  // "281 checks: 240 MUST, 29 SHOULD, 12 INFO"
  out.push((line) => line.replace(/\b\d+ MUST, \d+ SHOULD, \d+ INFO\b/g, `${byLevel.MUST} MUST, ${byLevel.SHOULD} SHOULD, ${byLevel.INFO} INFO`));
  // A sample run's closing line: its passed count makes the sum the catalogue's.
  out.push((line) =>
    line.replace(/\b(\d+) passed, (\d+) failed, (\d+) skipped\b/g, (match, passed: string, failed: string, skipped: string) => {
      const sum = Number(passed) + Number(failed) + Number(skipped);
      if (sum * 2 < checks) return match;
      return `${checks - Number(failed) - Number(skipped)} passed, ${failed} failed, ${skipped} skipped`;
    }),
  );
  return out;
}

/** bench/figures.json of the checkout (empty when no bench ever ran). */
export function benchFigures(root = packageRoot()): Figures {
  const path = join(root, FIGURES_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Figures) : {};
}

/** A figure as the docs write it: en-US digit grouping, the bench's own precision. */
export function figureText(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 20 });
}

// A number, up to 40 characters of unit or emphasis without a digit, then the marker.
const FIGURE = /(\d[\d,]*(?:\.\d+)?)([^\d\n]{0,40}?)<!-- bench: ([^,]+?), (.+?) -->/g;

function currentFigures(line: string, figures: Figures): string {
  return line.replace(FIGURE, (match, _number: string, between: string, bench: string, label: string) => {
    const figure = figures[bench.trim()]?.metrics[label.trim()];
    // An unknown figure cannot be made current: the marker says so, and the line stays stale.
    if (figure === undefined) return `${match} <!-- no such figure in ${FIGURES_FILE}: run \`npm run bench -- ${bench.trim()}\` -->`;
    return `${figureText(figure.value)}${between}<!-- bench: ${bench}, ${label} -->`;
  });
}

// "86 files, 930 tests", "166 s with its build": a test lane measured by hand.
const LANE_FIGURE = /\b\d+ (?:test )?files, \d+ tests\b/;

/** `text` with every stated total and quoted figure made current. */
export function withCurrentCounts(text: string, totals: readonly DocTotal[] = docTotals(), figures: Figures = benchFigures()): string {
  const all = rewrites(totals);
  return text
    .split('\n')
    .map((line) => currentFigures(all.reduce((current, rewrite) => rewrite(current), line), figures))
    .join('\n');
}

/** The lines of `text` whose totals or figures are stale, and those that state a test lane's size by hand. */
export function staleCounts(text: string, totals: readonly DocTotal[] = docTotals(), figures: Figures = benchFigures()): StaleCount[] {
  const current = withCurrentCounts(text, totals, figures).split('\n');
  return text
    .split('\n')
    .map((line, i) => ({ line: i + 1, found: line, expected: current[i]! }))
    .filter((entry) => entry.found !== entry.expected || LANE_FIGURE.test(entry.found))
    .map((entry) => (entry.found === entry.expected ? { ...entry, expected: 'a test lane measured by hand: quote BENCHMARKS.md ("Test lanes") instead' } : entry));
}
