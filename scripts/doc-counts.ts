/**
 * Totals written in prose (README.md, docs/*.md): "checks 281 requirements", "214 faults", "281 checks: 240
 * MUST, 29 SHOULD, 12 INFO", a sample run's "278 passed, 1 failed, 2 skipped". They went stale once (198
 * and 158 stayed after the catalogue grew), so each is found by its phrasing and compared with the catalogue
 * and the fault registry: `npm run docs` rewrites them, tests/docs/counts.test.ts fails on a stale one.
 *
 * What counts as a claim of a total: a number of checks, requirements, faults or variants that is at least
 * half of that total (a smaller number is a subset: "96 checks together", "20 faults, two per area"), and a
 * "N passed, N failed, N skipped" line whose sum is. BENCHMARKS.md is scanned like the others, and more
 * strictly (issue 47): every measured figure in it (a number with a unit of time, size, rate, ratio or
 * share) must be a quoted one, marked, so a figure typed by hand there fails the fast lane.
 *
 * Measured figures are not copied by hand either: a doc quotes one as the number followed by
 * `<!-- bench: NAME, LABEL -->`, and the number must be the one `npm run bench` last wrote to
 * bench/figures.json for that bench and metric (an unknown bench or label is stale too). `npm run docs`
 * rewrites them with the totals. Test-lane durations and counts (files, tests) are measurements of a
 * moment that no bench writes: a page that states them is flagged.
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
  return ['README.md', 'BENCHMARKS.md', ...docs];
}

/** The docs where any measured figure must be a marked quote of bench/figures.json. */
export const MEASURED_ONLY_DOCS: ReadonlySet<string> = new Set(['BENCHMARKS.md']);

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
const FIGURE = /(-?\d[\d,]*(?:\.\d+)?)([^\d\n]{0,40}?)<!-- bench: ([^,]+?), (.+?) -->/g;

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

// A measured figure: a number and a unit of time, size, rate, ratio or share ("0.47x", "184 MB", "2.5 s").
const HAND_FIGURE = /(?<![\w.:/-])\d[\d,]*(?:\.\d+)?\s?(?:ms|s|min|h|x|×|MB|MiB|KB|KiB|kB|GB|GiB|B|bytes|req\/s|webhooks\/s|%|µs|ns)(?![\w/])/;

/** A line's figures typed by hand: what is left of it once its marked quotes (number and marker) are taken out. */
function handFigure(line: string): string | undefined {
  return HAND_FIGURE.exec(line.replace(FIGURE, ' '))?.[0];
}

/**
 * The lines of `text` whose totals or figures are stale, those that state a test lane's size by hand, and,
 * with `measuredOnly` (BENCHMARKS.md), those holding a measured figure that is not a marked quote.
 */
export function staleCounts(text: string, totals: readonly DocTotal[] = docTotals(), figures: Figures = benchFigures(), options: { measuredOnly?: boolean } = {}): StaleCount[] {
  const current = withCurrentCounts(text, totals, figures).split('\n');
  const lines = text.split('\n');
  // The generated figures section (scripts/benchmarks-doc.ts) is written by `npm run docs` from the file, and
  // compared whole with its rendering: its units and the benches' method notes may hold numbers of their own.
  const sectionFrom = lines.indexOf('<!-- figures:start -->');
  const sectionTo = lines.indexOf('<!-- figures:end -->');
  const generated = (index: number): boolean => sectionFrom >= 0 && index > sectionFrom && index < sectionTo;
  const why = (found: string, index: number): string | undefined => {
    if (LANE_FIGURE.test(found)) return 'a test lane measured by hand: no bench writes it, so no page states it';
    const typed = options.measuredOnly && !generated(index) ? handFigure(found) : undefined;
    return typed === undefined ? undefined : `a figure typed by hand (${typed}): quote it from bench/figures.json as the number followed by <!-- bench: NAME, LABEL -->, written by the bench that measured it, or leave it out`;
  };
  return lines
    .map((line, i) => ({ line: i + 1, found: line, expected: current[i]! }))
    .filter((entry) => entry.found !== entry.expected || why(entry.found, entry.line - 1) !== undefined)
    .map((entry) => (entry.found === entry.expected ? { ...entry, expected: why(entry.found, entry.line - 1)! } : entry));
}
