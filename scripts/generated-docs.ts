/**
 * The generated parts of the documentation and where they go: README's coverage table (from the catalogue)
 * and mutation-score summary (from docs/mutation-score.md), docs/mutation-score.md (from a verification
 * result) and the fault list of docs/faults.md (from the fault registry). `npm run docs` writes them
 * (scripts/docs.ts); the tests only compare, with {@link staleMessage} telling what to run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdownTable } from '../src/cli/commands/list.js';
import { renderFaultList, replaceFaultList } from '../src/mutation/fault-list.js';
import { listFaults } from '../src/faults/index.js';
import { renderScoreTable } from '../src/mutation/score-table.js';
import type { VerificationResult } from '../src/mutation/verify.js';
import { allRequirements } from '../src/requirements.js';
import { packageRoot } from '../src/package.js';

/** The seed of the self-verification whose result the docs show. */
export const VERIFICATION_SEED = 'fault-verification';

/** Where the self-verification leaves its full result, for `npm run docs -- --from`. */
export const VERIFICATION_RESULT = join('reports', 'verification.json');

export const README_SECTIONS = ['coverage', 'mutation-score'] as const;
export type ReadmeSection = (typeof README_SECTIONS)[number];

export function staleMessage(file: string, fromResult = false): string {
  const command = fromResult ? `npm run docs -- --from ${VERIFICATION_RESULT}` : 'npm run docs';
  return `${file} is stale: run \`${command}\` and commit the result`;
}

function markers(name: string): { start: string; end: string } {
  return { start: `<!-- ${name}:start -->\n`, end: `<!-- ${name}:end -->` };
}

/** The text between a README section's markers. */
export function readmeSection(text: string, name: string): string {
  const { start, end } = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${name} markers`);
  return text.slice(from + start.length, to);
}

export function withReadmeSection(text: string, name: string, body: string): string {
  readmeSection(text, name);
  const { start, end } = markers(name);
  const from = text.indexOf(start) + start.length;
  return text.slice(0, from) + body + text.slice(text.indexOf(end));
}

/** The score table of docs/mutation-score.md (everything before its per-fault list), which README carries. */
export function mutationSummary(scoreDoc: string): string {
  const summary = (scoreDoc.split(/^## /m)[0] ?? '').replace(/^# .*\n+/, '').trimEnd();
  return `${summary}\n\nEvery fault, the requirements it breaks and whether it was caught: [docs/mutation-score.md](docs/mutation-score.md).\n`;
}

/** What a README section should hold, given the current docs/mutation-score.md text. */
export function expectedReadmeSection(name: ReadmeSection, scoreDoc: string): string {
  return name === 'coverage' ? `${renderMarkdownTable(allRequirements()).trimEnd()}\n` : mutationSummary(scoreDoc);
}

/** docs/faults.md with its fault list rendered from the registry. */
export function expectedFaultsDoc(current: string): string {
  return replaceFaultList(current, renderFaultList(listFaults()));
}

/**
 * The hand-written sections of docs/mutation-score.md, kept below the generated tables: "Real stacks" records
 * runs against real implementations on other stacks (fixtures/stacks), which the self-verification does not
 * make. From its heading to the end of the file.
 */
export const HAND_WRITTEN_SCORE_SECTION = '## Real stacks';

export function handWrittenScoreSections(current: string): string {
  const at = current.indexOf(`\n${HAND_WRITTEN_SCORE_SECTION}\n`);
  return at < 0 ? '' : current.slice(at + 1);
}

/** docs/mutation-score.md for a verification result of every fault, keeping `current`'s hand-written sections. */
export function expectedScoreDoc(result: VerificationResult, current = readDoc(packageRoot(), 'docs/mutation-score.md')): string {
  const generated = renderScoreTable(result);
  const kept = handWrittenScoreSections(current);
  return kept === '' ? generated : `${generated.trimEnd()}\n\n${kept}`;
}

export function readDoc(root: string, relative: string): string {
  return readFileSync(join(root, relative), 'utf8');
}
