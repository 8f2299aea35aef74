/**
 * The bounds the supervisor (stop/supervisor.ts) needs of a command whose child ended before it told them
 * (a signal while the child's entry still loaded): --max-duration and --out, read as the command itself
 * reads them (its option table's rows, yargs, ACCESS_CONFORMANCE_ variables through env-args.ts), never
 * from argv by hand. Loaded by the entry only in that case: a supervised start pays nothing for it.
 */
import yargs from 'yargs';
import { resolve } from 'node:path';
import type { StopBounds } from '../stop/supervisor.js';
import { commandFlags, normalizeBooleans, selectedCommand } from './argv.js';
import { isLoaded, resolveCommands } from './command-table.js';
import { commandWord } from './command.js';
import { envArgs } from './env-args.js';
import { COMMANDS } from './main.js';
import { yargsOptions, type OptionTable, type RawValue } from './option-grammar.js';

/** The commands whose stop the supervisor reports in <out>/report.json (`load prepare` writes a corpus, not a report). */
const REPORTING = new Set(['run', 'load']);

export async function stopFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<StopBounds> {
  const command = selectedCommand(argv, (await resolveCommands(COMMANDS, argv, false)).filter(isLoaded));
  if (command === undefined) return {};
  const table = command.options as OptionTable;
  const args = normalizeBooleans([...argv, ...envArgs(argv, [command], env).args], commandFlags(command).booleans);
  const parsed = yargs(args).options(yargsOptions(table, commandWord(command))).parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false }).help(false).version(false).parseSync();
  // Each row on its own: a bad --max-duration (the child's usage error) must not lose the folder.
  const value = <T>(name: string): T | undefined => {
    const row = table[name];
    if (row === undefined) return undefined;
    try {
      return row.parse((parsed[name] ?? row.default) as RawValue, `--${name}`) as T;
    } catch {
      return undefined;
    }
  };
  const maxDurationMs = value<number>('max-duration');
  const out = value<string>('out');
  const reporting = REPORTING.has(commandWord(command)) && parsed._[1] !== 'prepare';
  return { ...(maxDurationMs === undefined ? {} : { maxDurationMs }), ...(reporting && out !== undefined ? { reportDir: resolve(out) } : {}) };
}
