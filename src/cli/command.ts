/**
 * A CLI command: its option table (option-grammar.ts), what else yargs needs (positionals, examples,
 * epilogue), and a `run` that receives the table's typed values and returns the exit code. Commands never
 * call process.exit; main() maps errors to codes (HarnessError → 2 with its message, never a stack trace).
 */
import type { Argv } from 'yargs';
import { grammarNote, parseOptions, yargsOptions, type OptionTable, type OptionValues } from './option-grammar.js';

export interface CliCommand<T extends OptionTable = OptionTable> {
  /** yargs command string, e.g. `run` or `diff <a> <b>`. */
  command: string;
  describe: string;
  /** Every flag of the command, one row each. */
  options: T;
  /** Positionals and examples (declared only `forHelp`: withExamples); the epilogue is `epilogue` below. */
  builder?: (yargs: Argv, forHelp: boolean) => Argv;
  /** Printed under the options in --help, before the value grammar. */
  epilogue?: string;
  /** Returns the exit code (0, 1 or 2; 130/143 when a signal stopped it). `args` holds the positionals. */
  run: (options: OptionValues<T>, args: Readonly<Record<string, unknown>>) => Promise<number>;
}

/** A command of any table, as the command table holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command's run takes its own table's values
export type AnyCommand = CliCommand<any>;

/** Helps TypeScript infer the table's type for `run`. */
export function defineCommand<T extends OptionTable>(command: CliCommand<T>): CliCommand<T> {
  return command;
}

/** What a user types for the command: `diff` of `diff <a> <b>`. */
export function commandWord(command: { command: string }): string {
  return command.command.split(' ')[0]!;
}

/**
 * The command's yargs declaration: its table's options, its builder, its epilogue and its values' grammar.
 * `forHelp` false (no --help on the command line): the texts only help shows are left out. yargs renders
 * the whole help after a command's handler starts, to cache it: some 30 ms of the main thread per command
 * for `run`'s fifty options and examples, for a text nobody reads. Usage errors are ours (main.ts), not
 * yargs' help.
 */
export function declareCommand(yargs: Argv, command: AnyCommand, forHelp = true): Argv {
  const withOptions = yargs.options(yargsOptions(command.options, commandWord(command), forHelp));
  const built = command.builder ? command.builder(withOptions, forHelp) : withOptions;
  if (!forHelp) return built;
  const epilogue = [command.epilogue, grammarNote(command.options)].filter((text) => text !== undefined).join('\n\n');
  return epilogue === '' ? built : built.epilogue(epilogue);
}

/** Parses yargs' arguments with the command's table and runs it. */
export function invokeCommand(command: AnyCommand, args: Readonly<Record<string, unknown>>): Promise<number> {
  return command.run(parseOptions(command.options, args), args);
}

/** A command's `--help` examples, `[command, what it does]` rows of a table the help-examples test reads too. */
export function withExamples(yargs: Argv, examples: ReadonlyArray<readonly [string, string]>, shown = true): Argv {
  if (!shown) return yargs;
  let built = yargs;
  for (const [command, description] of examples) built = built.example(command, description);
  return built;
}
