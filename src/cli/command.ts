/**
 * A CLI command: its yargs declaration and a `run` that returns the exit code. Commands never call
 * process.exit; main() maps errors to codes (HarnessError → 2 with its message, never a stack trace).
 */
import type { Argv } from 'yargs';

export interface CliCommand<A = Record<string, unknown>> {
  /** yargs command string, e.g. `run` or `diff <a> <b>`. */
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<A>;
  /** Returns the exit code (0, 1 or 2). */
  run: (args: A) => Promise<number>;
}

/** Helps TypeScript infer A from the builder. */
export function defineCommand<A>(command: CliCommand<A>): CliCommand<A> {
  return command;
}
