/**
 * README.md carries generated sections (the coverage table from the catalogue, the mutation-score table the
 * fault self-verification writes). This test fails when one is stale; UPDATE_README=1 rewrites them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderMarkdownTable } from '../../src/cli/commands/list.js';
import { allRequirements } from '../../src/requirements.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const MUTATION_SCORE = fileURLToPath(new URL('../../docs/mutation-score.md', import.meta.url));

function section(text: string, name: string): string {
  const start = `<!-- ${name}:start -->\n`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${name} markers`);
  return text.slice(from + start.length, to);
}

function withSection(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->\n`;
  const from = text.indexOf(start) + start.length;
  const to = text.indexOf(`<!-- ${name}:end -->`);
  return text.slice(0, from) + body + text.slice(to);
}

/** The score table of docs/mutation-score.md (everything before its per-fault list), which README carries. */
function mutationSummary(doc: string): string {
  const summary = doc.split(/^## /m)[0].replace(/^# .*\n+/, '').trimEnd();
  return `${summary}\n\nEvery fault, the requirements it breaks and whether it was caught: [docs/mutation-score.md](docs/mutation-score.md).\n`;
}

const generated: Array<[string, () => string | undefined]> = [
  ['coverage', () => `${renderMarkdownTable(allRequirements()).trimEnd()}\n`],
  ['mutation-score', () => (existsSync(MUTATION_SCORE) ? mutationSummary(readFileSync(MUTATION_SCORE, 'utf8')) : undefined)],
];

describe('README.md generated sections', () => {
  it.each(generated)('%s is current', (name, render) => {
    const expected = render();
    if (expected === undefined) return expect.fail(`the source of the ${name} section does not exist`);
    let text = readFileSync(README, 'utf8');
    if (process.env.UPDATE_README === '1' && section(text, name) !== expected) {
      text = withSection(text, name, expected);
      writeFileSync(README, text);
    }
    expect(section(text, name), `README.md's ${name} section is stale: run UPDATE_README=1 npx vitest run tests/docs`).toBe(expected);
  });
});
