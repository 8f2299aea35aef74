/**
 * Every `--help` example runs as printed, as far as the catalogue and the option tables can tell without a
 * target: each flag is one the command takes, each value parses with its row's parser, each --only/--skip
 * ID or glob resolves against the catalogue (issue 39: `list --help` showed `--only "PAG-*"`, which exits 2;
 * the IDs are PAGE-), each --fault names a fault. The printed help is read too, so a pattern in a flag's
 * description (`e.g. --only "PAGE-*"`) is held to the same rule. Every command has examples, and `load
 * --help` says that a rate needs a duration.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DIFF_EXAMPLES, DIFF_OPTIONS } from '../../src/cli/commands/diff.js';
import { LIST_EXAMPLES, LIST_OPTIONS } from '../../src/cli/commands/list.js';
import { LOAD_EXAMPLES, LOAD_OPTIONS } from '../../src/cli/commands/load-options.js';
import { RUN_EXAMPLES, RUN_OPTIONS } from '../../src/cli/commands/run-options.js';
import { SEND_EXAMPLES, SEND_OPTIONS } from '../../src/cli/commands/send-options.js';
import { SERVE_EXAMPLES } from '../../src/cli/commands/serve.js';
import { SERVE_OPTIONS } from '../../src/cli/commands/serve-options.js';
import type { OptionTable } from '../../src/cli/option-grammar.js';
import { resolveSelection } from '../../src/engine/selection.js';
import { getFault } from '../../src/faults/index.js';
import { BIN, assertBuilt } from './support.js';

const COMMANDS: Record<string, { table: OptionTable; examples: ReadonlyArray<readonly [string, string]> }> = {
  run: { table: RUN_OPTIONS, examples: RUN_EXAMPLES },
  serve: { table: SERVE_OPTIONS, examples: SERVE_EXAMPLES },
  send: { table: SEND_OPTIONS, examples: SEND_EXAMPLES },
  list: { table: LIST_OPTIONS, examples: LIST_EXAMPLES },
  diff: { table: DIFF_OPTIONS, examples: DIFF_EXAMPLES },
  load: { table: LOAD_OPTIONS, examples: LOAD_EXAMPLES },
};

/** Shell words of a command line: spaces split, '…' and "…" quote (enough for the examples' own syntax). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (let match = re.exec(line); match; match = re.exec(line)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/** The flags of an example after `$0 <command>` (a pipe or redirect ends it), each with its value. */
function flagsOf(line: string, command: string, table: OptionTable): Array<{ flag: string; value: string | undefined }> {
  const words = shellWords(line);
  const start = words.indexOf('$0');
  expect(start, `${line} runs $0`).toBeGreaterThanOrEqual(0);
  expect(words[start + 1]).toBe(command);
  const flags: Array<{ flag: string; value: string | undefined }> = [];
  for (let i = start + 2; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '|' || word.startsWith('>')) break;
    if (!word.startsWith('--')) continue;
    const name = word.slice(2);
    const row = table[name];
    expect(row, `${line}: ${command} takes no ${word}`).toBeDefined();
    if (row!.kind === 'boolean') flags.push({ flag: name, value: undefined });
    else {
      flags.push({ flag: name, value: words[i + 1] });
      i += 1;
    }
  }
  return flags;
}

/** A pattern of --only/--skip resolves against the catalogue (resolveSelection throws USAGE when it matches nothing). */
function expectResolves(pattern: string, where: string): void {
  expect(() => resolveSelection({ only: [pattern], skip: [] }), `${where}: --only/--skip ${pattern}`).not.toThrow();
}

function help(command: string): string {
  assertBuilt();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_')));
  const result = spawnSync(process.execPath, [BIN, command, '--help'], { env, encoding: 'utf8', timeout: 30_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('every --help example', () => {
  for (const [command, { table, examples }] of Object.entries(COMMANDS)) {
    it(`${command}: has examples; each flag is the command's, each value parses, each ID, glob and fault exists`, () => {
      expect(examples.length, `${command} --help shows examples`).toBeGreaterThan(0);
      for (const [line] of examples) {
        for (const { flag, value } of flagsOf(line, command, table)) {
          const row = table[flag]!;
          expect(() => row.parse(value, `--${flag}`), `${line}: --${flag} ${value ?? ''}`).not.toThrow();
          if (flag === 'only' || flag === 'skip') for (const pattern of value!.split(',')) expectResolves(pattern, line);
          if (flag === 'fault') expect(getFault(value!), `${line}: --fault ${value}`).toBeDefined();
        }
      }
    });
  }

  it('the glob check fails on the pattern list --help used to show', () => {
    expect(() => resolveSelection({ only: ['PAG-*'], skip: [] })).toThrow(/matches no requirement/);
    expect(() => flagsOf('$0 list --nope x', 'list', LIST_OPTIONS)).toThrow(/list takes no --nope/);
  });
});

describe('the printed --help', () => {
  for (const command of Object.keys(COMMANDS)) {
    it(`${command} --help: its examples are printed, and every --only/--skip pattern in it resolves`, () => {
      const text = help(command);
      expect(text).toMatch(/^Examples:$/m);
      // yargs sets examples in two columns (command, what it does), wrapped: each starts a line of its own.
      const printed = text.slice(text.indexOf('Examples:')).match(new RegExp(`^ {2}(?:\\S+ )*access-conformance ${command}\\b`, 'gm')) ?? [];
      expect(printed).toHaveLength(COMMANDS[command]!.examples.length);
      const patterns = [...text.matchAll(/--(?:only|skip)[ =](?:"([^"]+)"|'([^']+)'|([^\s"',)]+))/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
      for (const pattern of patterns.flatMap((p) => p.split(','))) {
        // A placeholder (IDS, ID@op in a flag's description) is not a pattern of the catalogue.
        if (/^[A-Z]+$/.test(pattern) && !/\d|-/.test(pattern)) continue;
        expectResolves(pattern, `${command} --help`);
      }
    });
  }

  it('load --help says that a rate needs a duration', () => {
    const text = help('load').replace(/\s+/g, ' ');
    expect(text).toMatch(/--rate .*Needs --duration: a rate alone is an error/);
    expect(text).toContain('(a rate always needs a duration)');
  });
});
