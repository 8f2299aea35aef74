/**
 * The generated parts of the documentation and where they go: docs/coverage.md's coverage table (from the
 * catalogue) and mutation-score summary (from docs/mutation-score.md; both were the README's until the
 * README became a page a newcomer reads in a screen or two), docs/mutation-score.md (from a verification
 * result), the fault list of docs/faults.md (from the fault registry) and the client mistakes of
 * docs/sandbox.md (from the mistake catalogue, src/sandbox/mistakes). `npm run docs` writes them
 * (scripts/docs.ts); the tests only compare, with {@link staleMessage} telling what to run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdownTable } from '../src/cli/commands/list.js';
import { renderFaultList, replaceFaultList } from '../src/mutation/fault-list.js';
import { listFaults } from '../src/faults/index.js';
import { renderScoreTable } from '../src/mutation/score-table.js';
import type { VerificationResult } from '../src/mutation/verify.js';
import { allRequirements } from '../src/requirements/catalogue.js';
import { replaceMistakeList } from '../src/sandbox/mistake-list.js';

/** The seed of the self-verification whose result the docs show. */
export const VERIFICATION_SEED = 'fault-verification';

/** Where the self-verification leaves its full result, for `npm run docs -- --from`. */
export const VERIFICATION_RESULT = join('reports', 'verification.json');

/** The page that carries the generated sections (README_SECTIONS, named for where they were first). */
export const SECTIONS_DOC = 'docs/coverage.md';

export const README_SECTIONS = ['coverage', 'mutation-score'] as const;
export type ReadmeSection = (typeof README_SECTIONS)[number];

export function staleMessage(file: string, fromResult = false): string {
  const command = fromResult ? `npm run docs -- --from ${VERIFICATION_RESULT}` : 'npm run docs';
  return `${file} is stale: run \`${command}\` and commit the result`;
}

function markers(name: string): { start: string; end: string } {
  return { start: `<!-- ${name}:start -->\n`, end: `<!-- ${name}:end -->` };
}

/** The text between a generated section's markers (in SECTIONS_DOC). */
export function readmeSection(text: string, name: string): string {
  const { start, end } = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document has no ${name} markers (<!-- ${name}:start --> … <!-- ${name}:end -->)`);
  return text.slice(from + start.length, to);
}

export function withReadmeSection(text: string, name: string, body: string): string {
  readmeSection(text, name);
  const { start, end } = markers(name);
  const from = text.indexOf(start) + start.length;
  return text.slice(0, from) + body + text.slice(text.indexOf(end));
}

/** The score table of docs/mutation-score.md (everything before its per-fault list), which SECTIONS_DOC carries. */
export function mutationSummary(scoreDoc: string): string {
  const summary = (scoreDoc.split(/^## /m)[0] ?? '').replace(/^# .*\n+/, '').trimEnd();
  return `${summary}\n\nEvery fault, the requirements it breaks and whether it was caught: [mutation-score.md](mutation-score.md).\n`;
}

/** What a generated section should hold, given the current docs/mutation-score.md text. */
export function expectedReadmeSection(name: ReadmeSection, scoreDoc: string): string {
  return name === 'coverage' ? `${renderMarkdownTable(allRequirements()).trimEnd()}\n` : mutationSummary(scoreDoc);
}

/** docs/faults.md with its fault list rendered from the registry. */
export function expectedFaultsDoc(current: string): string {
  return replaceFaultList(current, renderFaultList(listFaults()));
}

/** docs/sandbox.md with its "When the sandbox says no" list rendered from the mistake catalogue. */
export function expectedSandboxDoc(current: string): string {
  return replaceMistakeList(current);
}

const REAL_STACKS = '## Real stacks';

/**
 * The hand-written `## Real stacks` section of a docs/mutation-score.md text (runs of the independent
 * implementations in fixtures/stacks: measured by hand, not by the self-verification), or ''.
 */
export function realStacksSection(scoreDoc: string): string {
  const text = `\n${scoreDoc}`;
  const from = text.indexOf(`\n${REAL_STACKS}\n`);
  if (from < 0) return '';
  const next = text.indexOf('\n## ', from + 1);
  return `${text.slice(from + 1, next < 0 ? undefined : next).trimEnd()}\n`;
}

/** A generated score doc with `current`'s Real stacks section put back after the Stacks section (or at the end). */
export function withRealStacks(generated: string, current: string): string {
  const kept = realStacksSection(current);
  if (kept === '') return generated;
  const stacks = generated.indexOf('\n## Stacks\n');
  const at = stacks < 0 ? -1 : generated.indexOf('\n## ', stacks + 1);
  if (at < 0) return `${generated.trimEnd()}\n\n${kept}`;
  return `${generated.slice(0, at + 1)}${kept}\n${generated.slice(at + 1)}`;
}

/** docs/mutation-score.md for a verification result of every fault, keeping the Real stacks section of `current`. */
export function expectedScoreDoc(result: VerificationResult, current = ''): string {
  return withRealStacks(renderScoreTable(result), current);
}

export function readDoc(root: string, relative: string): string {
  return readFileSync(join(root, relative), 'utf8');
}
