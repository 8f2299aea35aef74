/**
 * Each command's --help and flags, over every option table: a shared flag is described by what it does in
 * THAT command (serve --help says what --max-duration does in serve, not in run, load and send); a value's
 * kind is shown (`[duration]`, `[number]`, `[rate]`, never `[string]` for them); the value grammar is
 * printed only where the command has such values (list and diff take no duration); and a flag that takes a
 * value, given without one, is a usage error (exit 2) naming the flag, in every command.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missingValue } from '../../src/cli/argv.js';
import { DIFF_OPTIONS } from '../../src/cli/commands/diff.js';
import { LIST_OPTIONS } from '../../src/cli/commands/list.js';
import { LOAD_OPTIONS } from '../../src/cli/commands/load-options.js';
import { RUN_OPTIONS } from '../../src/cli/commands/run-options.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send-options.js';
import { SERVE_OPTIONS } from '../../src/cli/commands/serve-options.js';
import { VERIFY_OPTIONS } from '../../src/cli/commands/verify.js';
import { main } from '../../src/cli/main.js';
import { describeRow, kindTag, valueFlags, type OptionRow, type OptionTable } from '../../src/cli/option-grammar.js';
import { SHARED_OPTIONS } from '../../src/cli/shared-options.js';
import { BIN, assertBuilt } from './support.js';

const TABLES: Record<string, OptionTable> = { run: RUN_OPTIONS, serve: SERVE_OPTIONS, send: SEND_OPTIONS, list: LIST_OPTIONS, diff: DIFF_OPTIONS, load: LOAD_OPTIONS, verify: VERIFY_OPTIONS };
const COMMAND_NAMES = Object.keys(TABLES);

function takers(row: OptionRow<unknown>): string[] {
  return COMMAND_NAMES.filter((command) => Object.values(TABLES[command]!).includes(row));
}

const squash = (text: string): string => text.replace(/\s+/g, ' ');

function help(command: string): string {
  assertBuilt();
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ACCESS_CONFORMANCE_')));
  // A wide terminal is not assumed: yargs wraps at 100 columns here as on most terminals.
  const result = spawnSync(process.execPath, [BIN, command, '--help'], { env, encoding: 'utf8', timeout: 30_000 });
  expect(result.status, result.stderr).toBe(0);
  return squash(result.stdout);
}

describe('a shared flag says what it does in the command at hand', () => {
  it.each(Object.entries(SHARED_OPTIONS))('--%s has a description for exactly the commands that take it', (_flag, row) => {
    expect(Object.keys(row.describeIn ?? {}).sort()).toEqual(takers(row).sort());
  });

  it.each(Object.entries(SHARED_OPTIONS))("--%s: no command's description tells what another command does with it", (flag, row) => {
    for (const command of takers(row)) {
      for (const other of takers(row).filter((name) => name !== command)) {
        // `serve --list-faults` is a command line to type, not a description of serve's behaviour.
        expect(row.describeIn![command], `${command} --${flag} speaks of ${other}`).not.toMatch(new RegExp(`\\b${other}\\b(?! --)`));
      }
    }
  });
});

describe('--help of each command', () => {
  it.each(COMMAND_NAMES)('%s --help: each flag described for this command, with the kind of its value', (command) => {
    const text = help(command);
    for (const [flag, row] of Object.entries(TABLES[command]!)) {
      const described = squash(describeRow(row, command));
      expect(text, `${command} --${flag}`).toContain(described);
      const tag = kindTag(row.kind);
      if (tag !== undefined) expect(text.split(described)[1], `${command} --${flag} is a ${tag}, not a string`).not.toMatch(/^ \[string\]/);
    }
    for (const [flag, row] of Object.entries(SHARED_OPTIONS)) {
      for (const other of takers(row).filter((name) => name !== command)) {
        if (!takers(row).includes(command)) continue;
        expect(text, `${command} --help shows ${other}'s --${flag}`).not.toContain(squash(row.describeIn![other]!));
      }
    }
  });

  it.each(COMMAND_NAMES)('%s --help explains durations only when the command takes one', (command) => {
    const hasDuration = Object.values(TABLES[command]!).some((row) => row.kind === 'duration');
    expect(help(command).includes('Durations need a unit')).toBe(hasDuration);
  });

  it('list and diff take no duration, so they print no duration grammar; run, serve, send and load do', () => {
    expect(['list', 'diff'].filter((command) => Object.values(TABLES[command]!).some((row) => row.kind === 'duration'))).toEqual([]);
    expect(['run', 'serve', 'send', 'load'].every((command) => Object.values(TABLES[command]!).some((row) => row.kind === 'duration'))).toBe(true);
  });
});

describe('a flag given without its value', () => {
  let stderr = '';
  afterEach(() => {
    vi.restoreAllMocks();
    stderr = '';
  });
  async function exitOf(argv: string[]): Promise<number> {
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    return main(argv);
  }

  const cases = COMMAND_NAMES.flatMap((command) => [...valueFlags(TABLES[command]!)].map((flag) => [command, flag] as const));
  it('covers every value-taking option of every command', () => {
    expect(cases.length).toBeGreaterThan(60);
    expect(cases).toContainEqual(['run', 'reporter']);
    expect(cases).toContainEqual(['serve', 'max-duration']);
  });

  it.each(cases)('%s --%s: last on the line, followed by another flag, or with an empty =: exit 2 naming it', async (command, flag) => {
    const positionals = command === 'diff' ? ['a.json', 'b.json'] : [];
    for (const argv of [
      [command, ...positionals, `--${flag}`],
      [command, `--${flag}`, '--help'],
      [command, ...positionals, `--${flag}=`],
    ]) {
      stderr = '';
      expect(await exitOf(argv), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toContain(`error[USAGE] at --${flag}: --${flag} needs a value`);
    }
  });

  it('a value is not missing when it is given, is "-" (standard input) or a negative number, or comes with =', () => {
    const flags = new Set(['file', 'out', 'timestamp']);
    expect(missingValue(['send', '--file', '-', '--out', 'x'], flags)).toBeUndefined();
    expect(missingValue(['send', '--timestamp', '-5'], flags)).toBeUndefined();
    expect(missingValue(['send', '--out=-weird'], flags)).toBeUndefined();
    expect(missingValue(['send', '--', '--out'], flags)).toBeUndefined();
    expect(missingValue(['send', '--out', '--file', 'x'], flags)).toEqual({ flag: '--out', next: '--file' });
  });
});
