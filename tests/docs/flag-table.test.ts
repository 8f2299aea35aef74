/**
 * docs/running.md's flag tables against the option tables: every flag of `run` and every shared flag is
 * documented with its default, no documented flag is missing from the code, and the "commands" column of
 * the shared table names exactly the commands whose table takes that row.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIFF_OPTIONS } from '../../src/cli/commands/diff.js';
import { LIST_OPTIONS } from '../../src/cli/commands/list.js';
import { LOAD_OPTIONS } from '../../src/cli/commands/load-options.js';
import { RUN_OPTIONS } from '../../src/cli/commands/run-options.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send-options.js';
import { SERVE_OPTIONS } from '../../src/cli/commands/serve-options.js';
import { VERIFY_OPTIONS } from '../../src/cli/commands/verify.js';
import type { OptionRow, OptionTable } from '../../src/cli/option-grammar.js';
import { SHARED_OPTIONS } from '../../src/cli/shared-options.js';

const DOC = readFileSync(new URL('../../docs/running.md', import.meta.url), 'utf8');
const TABLES: Record<string, OptionTable> = { run: RUN_OPTIONS, serve: SERVE_OPTIONS, send: SEND_OPTIONS, list: LIST_OPTIONS, diff: DIFF_OPTIONS, load: LOAD_OPTIONS, verify: VERIFY_OPTIONS };

/** The rows of the Markdown table under `heading`: flag name → its cells (the first is the flag's own). */
function docTable(heading: string): Map<string, string[]> {
  const start = DOC.indexOf(`\n${heading}\n`);
  expect(start, `docs/running.md has "${heading}"`).toBeGreaterThan(-1);
  const rows = new Map<string, string[]>();
  for (const line of DOC.slice(start + heading.length + 2).split('\n').slice(2)) {
    if (!line.startsWith('| `--')) {
      if (rows.size > 0) break;
      continue;
    }
    const cells = line.split(' | ').map((cell) => cell.replace(/^\| /, '').trim());
    const flag = /^`--([a-z-]+)/.exec(cells[0]!)![1]!;
    rows.set(flag, cells);
  }
  return rows;
}

/** The placeholder a flag cell must show for a row's kind: `D` a duration, `N` a number, `N/s` a rate, none for a boolean. */
function expectPlaceholder(flag: string, row: OptionRow<unknown>, cell: string): void {
  const placeholder = new RegExp(`^\`--${flag}(?: ([^\`]+))?\`$`).exec(cell)?.[1];
  const expected: Record<string, string | undefined> = { boolean: undefined, duration: 'D', number: 'N', 'custom:rate': 'N/s' };
  if (row.kind in expected) expect(placeholder, `--${flag} (${row.kind})`).toBe(expected[row.kind]);
  else expect(placeholder, `--${flag} (${row.kind}) names its value`).toMatch(/^[A-Z]/);
}

/** What the default cell must hold for a row: its default as typed (`10s`), `off` for a boolean, else a word. */
function expectDefault(flag: string, row: OptionRow<unknown>, cell: string): void {
  if (row.yargs.type === 'boolean') {
    expect(cell, `--${flag}`).toBe(row.default === true ? 'on' : 'off');
  } else if (row.default === undefined || (Array.isArray(row.default) && row.default.length === 0)) {
    expect(cell, `--${flag} has no default in the code`).not.toMatch(/^`/);
  } else {
    expect(cell, `--${flag}`).toBe(`\`${String(row.default)}\``);
  }
}

describe('docs/running.md flag tables', () => {
  it('the run table lists every flag of RUN_OPTIONS, in order, with its default', () => {
    const doc = docTable('### `run`');
    expect([...doc.keys()]).toEqual(Object.keys(RUN_OPTIONS));
    for (const [flag, row] of Object.entries(RUN_OPTIONS)) expectDefault(flag, row, doc.get(flag)![1]!);
  });

  it('the shared table lists every shared row, its default and exactly the commands that take it', () => {
    const doc = docTable('### Shared flags');
    expect([...doc.keys()]).toEqual(Object.keys(SHARED_OPTIONS));
    for (const [flag, row] of Object.entries(SHARED_OPTIONS)) {
      const [, defaultCell, commands] = doc.get(flag)!;
      expectDefault(flag, row, defaultCell!);
      const taking = Object.entries(TABLES)
        .filter(([, table]) => table[flag] === row)
        .map(([name]) => name);
      expect(commands!.split(', '), `--${flag}`).toEqual(taking);
    }
  });

  it('each documented flag shows the kind of its value as the code parses it', () => {
    for (const heading of ['### `run`', '### Shared flags']) {
      const table = heading === '### `run`' ? RUN_OPTIONS : SHARED_OPTIONS;
      for (const [flag, cells] of docTable(heading)) expectPlaceholder(flag, table[flag as keyof typeof table] as OptionRow<unknown>, cells[0]!);
    }
  });

  it('a command that declares a shared flag takes the shared row itself, not a copy', () => {
    for (const [command, table] of Object.entries(TABLES)) {
      for (const flag of Object.keys(SHARED_OPTIONS)) {
        if (flag in table) expect(table[flag], `${command} --${flag}`).toBe(SHARED_OPTIONS[flag as keyof typeof SHARED_OPTIONS]);
      }
    }
  });
});
