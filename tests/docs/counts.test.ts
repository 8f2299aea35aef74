/**
 * Every total the docs state in prose (checks, requirements, MUST/SHOULD/INFO, faults) is the catalogue's
 * and the fault registry's: scripts/doc-counts.ts finds them by their phrasing. Every measured figure they
 * quote (a number followed by `<!-- bench: NAME, LABEL -->`) is the one `npm run bench` last wrote to
 * bench/figures.json, and no page states a test lane's size by hand. A stale one fails here with the line
 * and what it should say; `npm run docs` rewrites them.
 */
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package.js';
import { allRequirements } from '../../src/requirements/catalogue.js';
import { listFaults } from '../../src/faults/index.js';
import { BENCHMARKS_DOC, FIGURES_SECTION, renderFiguresSection } from '../../scripts/benchmarks-doc.js';
import { benchFigures, countedDocs, docTotals, MEASURED_ONLY_DOCS, staleCounts, withCurrentCounts } from '../../scripts/doc-counts.js';
import { readDoc, readmeSection, staleMessage } from '../../scripts/generated-docs.js';

const root = packageRoot();

describe('totals stated in the docs', () => {
  it('are read from the catalogue and the fault registry', () => {
    const totals = Object.fromEntries(docTotals().map((total) => [total.name, total.value]));
    expect(totals.checks).toBe(allRequirements().length);
    expect(totals.faults).toBe(listFaults().length);
  });

  it.each(countedDocs(root))('%s states current totals', (relative) => {
    const stale = staleCounts(readDoc(root, relative), undefined, undefined, { measuredOnly: MEASURED_ONLY_DOCS.has(relative) });
    expect(stale.map((entry) => `line ${entry.line}: ${entry.found.trim()}  →  ${entry.expected.trim()}`), staleMessage(relative)).toEqual([]);
  });

  it('a stale total is found and a subset is left alone', () => {
    const totals = [
      { name: 'checks', value: 281, nouns: ['checks', 'requirements'] },
      { name: 'faults', value: 214, nouns: ['faults'] },
    ];
    const text = 'selection 198 checks\n96 checks together\n158 faults and 20 faults\n198 of 198 checks\n197 passed, 1 failed, 0 skipped\n41 passed, 0 failed, 0 skipped';
    expect(withCurrentCounts(text, totals)).toBe(
      'selection 281 checks\n96 checks together\n214 faults and 20 faults\n198 of 281 checks\n280 passed, 1 failed, 0 skipped\n41 passed, 0 failed, 0 skipped',
    );
    expect(staleCounts('281 checks', totals)).toEqual([]);
  });

  it('quoted figures are bench/figures.json\'s: a stale one is rewritten, an unknown one and a hand-measured lane are flagged', () => {
    const totals = docTotals();
    const figures = { reference: { at: '2026-11-27T00:00:00Z', node: 'v20', metrics: { 'HMAC webhook requests per second': { value: 9967, unit: 'req/s' }, p99: { value: 1.5, unit: 'ms' } } } };
    const text = 'measured 4,600<!-- bench: reference, HMAC webhook requests per second --> webhooks/s (p99 **13 ms**<!-- bench: reference, p99 -->)';
    expect(withCurrentCounts(text, totals, figures)).toBe('measured 9,967<!-- bench: reference, HMAC webhook requests per second --> webhooks/s (p99 **1.5 ms**<!-- bench: reference, p99 -->)');
    expect(staleCounts(withCurrentCounts(text, totals, figures), totals, figures)).toEqual([]);
    expect(staleCounts('12 B<!-- bench: nothing, here -->', totals, figures)[0]!.expected).toContain('no such figure in bench/figures.json');
    expect(staleCounts('the fast lane: 166 s (86 files, 930 tests)', totals, figures)[0]!.expected).toContain('a test lane measured by hand');
  });

  it('bench/figures.json holds the figures the docs quote', () => {
    expect(Object.keys(benchFigures(root))).toEqual(expect.arrayContaining(['package', 'reference', 'reference-memory', 'state']));
  });

  it('BENCHMARKS.md is held to bench/figures.json: its figures section is the file rendered, and the fast lane checks it', () => {
    expect(countedDocs(root)).toContain(BENCHMARKS_DOC);
    expect(MEASURED_ONLY_DOCS.has(BENCHMARKS_DOC)).toBe(true);
    expect(readmeSection(readDoc(root, BENCHMARKS_DOC), FIGURES_SECTION), staleMessage(BENCHMARKS_DOC)).toBe(renderFiguresSection(benchFigures(root)));
  });

  it('in BENCHMARKS.md a figure typed by hand fails, a marked one is held to the file, and a non-figure number is left alone', () => {
    const totals = docTotals();
    const figures = { speed: { at: '2026-11-28T00:00:00Z', node: 'v20', metrics: { 'this: embedded run peak RSS (median)': { value: 184, unit: 'MB' }, ratio: { value: 0.47, unit: 'x' } } } };
    const strict = (text: string) => staleCounts(text, totals, figures, { measuredOnly: true }).map((entry) => entry.expected);
    for (const typed of ['the embedded run: 0.47x of the base', 'peak RSS 184 MB', 'checks phase 2.5 s to 1.7 s', '9,967 req/s', 'p99 13 ms', 'CPU 35%']) {
      expect(strict(typed), typed).toEqual([expect.stringMatching(/^a figure typed by hand/)]);
    }
    expect(strict('peak RSS 184<!-- bench: speed, this: embedded run peak RSS (median) --> MB, 0.47<!-- bench: speed, ratio -->x')).toEqual([]);
    expect(strict('peak RSS 190<!-- bench: speed, this: embedded run peak RSS (median) --> MB')).toEqual(['peak RSS 184<!-- bench: speed, this: embedded run peak RSS (median) --> MB']);
    expect(strict('Measured 2026-11-28T06:50:00.000Z, Node v20.20.2, commit `e624486`, 2 cores, load average 22.08 / 16.24 / 9.63; issue 47, ruling 35')).toEqual([]);
    // Elsewhere only the marked figures are held (a docs page states defaults and limits with units).
    expect(staleCounts('the default timeout is 10 s', totals, figures)).toEqual([]);
  });
});
