/**
 * BENCHMARKS.md's figures, generated from bench/figures.json (issue 47): one section per bench with what it
 * measured, each figure written with its `<!-- bench: NAME, LABEL -->` marker (scripts/doc-counts.ts holds
 * it to the file), and the record of how: when, which commit, on what machine (cores, load average) and the
 * bench's own method. `npm run docs` writes it between `<!-- figures:start -->` and `<!-- figures:end -->`;
 * tests/docs/counts.test.ts compares. The prose around it states no figure: one typed by hand there fails.
 */
import type { BenchEntry, Figures } from '../bench/figures.js';
import { figureText } from './doc-counts.js';

export const BENCHMARKS_DOC = 'BENCHMARKS.md';
export const FIGURES_SECTION = 'figures';

/** The record line of an entry: date, Node, commit, machine; what an entry older than the record lacks, it says. */
function recordLine(entry: BenchEntry): string {
  const commit = entry.commit ? `commit \`${entry.commit.slice(0, 12)}${entry.commit.endsWith('+changes') ? '+changes' : ''}\`` : 'commit not recorded';
  const machine = entry.machine
    ? `${entry.machine.cores} cores (${entry.machine.platform}), load average ${entry.machine.loadAverage.join(' / ')} (1 / 5 / 15 min)`
    : 'machine not recorded (written before the record held it)';
  return `Measured ${entry.at}, Node ${entry.node}, ${commit}, ${machine}.`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderFiguresSection(figures: Figures): string {
  const parts: string[] = [];
  for (const [bench, entry] of Object.entries(figures)) {
    parts.push(`### \`${bench}\` (\`${entry.command ?? `npm run bench -- ${bench}`}\`)`, '', recordLine(entry), '');
    parts.push('| metric | value |', '|---|---|');
    // The marker right after the number: a unit may hold digits ("/ 281"), which the marker must not follow.
    for (const [label, figure] of Object.entries(entry.metrics)) parts.push(`| ${cell(label)} | ${figureText(figure.value)}<!-- bench: ${bench}, ${label} --> ${cell(figure.unit)} |`);
    if (entry.method && entry.method.length > 0) parts.push('', 'How:', '', ...entry.method.map((note) => `- ${note.replace(/\n/g, ' ')}`));
    parts.push('');
  }
  return `\n${parts.join('\n')}`;
}
