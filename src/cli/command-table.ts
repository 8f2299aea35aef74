/**
 * The command table, imported on demand. A command module's imports reach the engine (vitest), faker's
 * locales, the reference, the load driver: about half a second each. `--version` and `--help` need only
 * each command's name and one-line description, so the table carries those and imports a command's module
 * only when the command line names it (or when ACCESS_CONFORMANCE_* variables must be matched against
 * every command's flags).
 */
import type { AnyCommand, CliCommand } from './command.js';
import type { OptionTable } from './option-grammar.js';

/** A command the table lists before importing it. */
export interface LazyCommand {
  /** yargs command string, e.g. `diff <a> <b>`: the same as the module's (tests/cli/command-table.test.ts). */
  command: string;
  describe: string;
  load: () => Promise<AnyCommand>;
}

/** A table entry: imported on demand, or already imported (a command with light imports). */
export type CommandEntry = LazyCommand | AnyCommand;

export function lazyCommand<T extends OptionTable>(command: string, describe: string, load: () => Promise<CliCommand<T>>): LazyCommand {
  return { command, describe, load };
}

export function isLoaded(entry: CommandEntry): entry is AnyCommand {
  return 'run' in entry;
}

/** The first word of the yargs command string: what a user types. */
export function commandName(entry: CommandEntry): string {
  return entry.command.split(' ')[0] ?? entry.command;
}

/**
 * The table with the commands `argv` names imported (every command when `all`). A word of argv that is a
 * command name counts wherever it stands (flags may come first), so the command yargs runs is always
 * imported; at worst another one is imported for nothing.
 */
export async function resolveCommands(entries: readonly CommandEntry[], argv: readonly string[], all: boolean): Promise<CommandEntry[]> {
  const named = new Set(argv.filter((arg) => !arg.startsWith('-')));
  return Promise.all(entries.map(async (entry) => (isLoaded(entry) || !(all || named.has(commandName(entry))) ? entry : entry.load())));
}
