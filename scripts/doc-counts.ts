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
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listFaults } from '../src/faults/index.js';
import { allRequirements } from '../src/requirements.js';

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

/** `text` with every stated total made current. */
export function withCurrentCounts(text: string, totals: readonly DocTotal[] = docTotals()): string {
  const all = rewrites(totals);
  return text
    .split('\n')
    .map((line) => all.reduce((current, rewrite) => rewrite(current), line))
    .join('\n');
}

/** The lines of `text` whose totals are stale. */
export function staleCounts(text: string, totals: readonly DocTotal[] = docTotals()): StaleCount[] {
  const current = withCurrentCounts(text, totals).split('\n');
  return text
    .split('\n')
    .map((line, i) => ({ line: i + 1, found: line, expected: current[i]! }))
    .filter((entry) => entry.found !== entry.expected);
}
