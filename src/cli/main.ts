/**
 * The CLI: one table of commands, each in src/cli/commands/. Every flag can also come from the environment
 * as ACCESS_CONFORMANCE_<FLAG>, e.g. ACCESS_CONFORMANCE_PROFILE=target.json (see env-args.ts: a variable
 * applies to the commands that declare that flag; the command line wins).
 */
import yargs from 'yargs';
import { DEBUG_ENABLED } from '../debug.js';
import { EXIT, HarnessError, isHarnessError } from '../errors.js';
import { isLoaded, lazyCommand, resolveCommands, type CommandEntry } from './command-table.js';
import { commandFlags, missingValue, normalizeBooleans, selectedCommand, withSuggestions } from './argv.js';
import { commandWord, declareCommand, invokeCommand } from './command.js';
import { valueFlags } from './option-grammar.js';
import { ENV_PREFIX, envArgs } from './env-args.js';
import { NOT_TAKEN } from './shared-options.js';

// The command table: order is the order of --help. Each module is imported only when its command runs
// (command-table.ts): --version and --help stay fast.
export const COMMANDS: ReadonlyArray<CommandEntry> = [
  lazyCommand(
    'run',
    'Check an implementation against the requirement catalogue (the embedded reference when no --profile or --image is given)',
    async () => (await import('./commands/run.js')).runCommand,
  ),
  lazyCommand(
    'serve',
    'Run the reference implementation with a generated tenant and write its target profile',
    async () => (await import('./commands/serve.js')).serveCommand,
  ),
  lazyCommand(
    'send',
    'Sign and send one webhook to a listener of a profile (HMAC or JWT), print the answer',
    async () => (await import('./commands/send.js')).sendCommand,
  ),
  lazyCommand(
    'list',
    'Print the requirement catalogue (IDs, levels, spec sections, sentences, needs, authorities), or with --openapi the operations of a description',
    async () => (await import('./commands/list.js')).listCommand,
  ),
  lazyCommand(
    'diff <a> <b>',
    'Compare two json reports: what started failing, what started passing, what appeared or disappeared',
    async () => (await import('./commands/diff.js')).diffCommand,
  ),
  lazyCommand(
    'load [action]',
    'Load-test the webhook hot path (open model, latency from intended send times); `load prepare` signs a JWT corpus for k6',
    async () => (await import('./commands/load.js')).loadCommand,
  ),
  lazyCommand(
    'verify <bundle>',
    'Check an attestation run --attest wrote: signature, in-toto test-result statement, subject, catalogue version, and the report it binds',
    async () => (await import('./commands/verify.js')).verifyCommand,
  ),
];

/** A yargs validation message (unknown flag, missing argument), raised out of .fail() to stop parsing. */
class UsageStop extends Error {}

const QUIET = Symbol.for('access-conformance.quiet-on-closed-pipe');

/**
 * A reader that closed its end of the pipe (`list | head -1`) has what it wanted: the command stops writing
 * there and ends as it would have, quietly, instead of an unhandled EPIPE with a stack trace (exit 1). Any
 * other error on stdout or stderr (a full disk behind a redirect) is one line and exit 2, never a stack.
 * Node emits the error once and then drops further writes to the destroyed stream, so the rest of a run
 * (its report files) still completes.
 */
export function quietOnClosedPipes(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    const marked = stream as { [QUIET]?: true };
    // main() may run more than once in a process (tests): one listener each.
    if (marked[QUIET]) continue;
    marked[QUIET] = true;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return;
      process.exitCode = EXIT.HARNESS;
      // stderr may be the stream that failed: a last attempt, and nothing more.
      if (stream !== process.stderr) process.stderr.write(`error: writing to stdout failed: ${error.message}\n`);
    });
  }
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipes();
  try {
    return await parseAndRun(argv);
  } catch (error) {
    return reportError(error);
  }
}

async function parseAndRun(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.CONFORMANT;
  let usageError: string | undefined;
  const withEnv = Object.keys(process.env).some((name) => name.startsWith(ENV_PREFIX));
  const commands = await resolveCommands(COMMANDS, argv, withEnv);
  const loaded = commands.filter(isLoaded);
  const fromEnv = envArgs(argv, loaded);
  for (const variable of fromEnv.unknown) {
    process.stderr.write(`note: ${variable} is not an option of any command; ignored\n`);
  }
  const selected = selectedCommand(argv, loaded);
  const flags = selected ? commandFlags(selected) : { names: new Set<string>(), booleans: new Set<string>() };
  // `--strict=maybe` must be an error, not yargs' silent false.
  const args = normalizeBooleans([...argv, ...fromEnv.args], flags.booleans);
  // `run --reporter` with nothing after it must be an error, not yargs' silent "" (no report written).
  const missing = selected ? missingValue(args, valueFlags(selected.options)) : undefined;
  if (missing !== undefined) {
    throw new HarnessError('USAGE', `${missing.flag} needs a value${missing.next === undefined ? '' : `; it was followed by ${missing.next}`}`, {
      field: missing.flag,
      hint: `give it one (\`access-conformance ${commandWord(selected!)} --help\` says what it takes); a value that starts with - goes as ${missing.flag}=VALUE`,
    });
  }
  const helpAsked = asksForHelp(args);
  const cli = yargs(args)
    .scriptName('access-conformance')
    .usage('$0 <command> [options]\n\nConformance harness and load tester for the access-governance service API.')
    .strict()
    .demandCommand(1, 'Name a command: run, serve, send, list, diff or load.')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .version()
    // Durations, numbers and rates are declared without a yargs type (so --help does not call them
    // [string]); their text must still reach the row's parser as given ("08", "1e3" are the parser's to judge).
    .parserConfiguration({ 'parse-numbers': false, 'parse-positional-numbers': false })
    // yargs renders the whole help text (cliui, wrap-ansi) after every command's handler starts, to cache it:
    // wrapped, and with the option texts and examples (declareCommand), only when it is shown.
    .wrap(helpAsked ? Math.min(110, process.stdout.columns || 100) : null)
    .epilogue('Exit codes: 0 conformant, 1 not conformant (a MUST failed, or a SHOULD with --strict), 2 harness or usage error, 130 / 143 interrupted by SIGINT / SIGTERM.')
    .fail((message, error) => {
      if (error) throw error;
      // Throwing stops yargs before it calls the command's handler: a bad flag must not start a run.
      throw new UsageStop(message);
    });
  for (const entry of commands) {
    if (!isLoaded(entry)) {
      // Listed for --help; not named on the command line, so yargs does not run it.
      cli.command(entry.command, entry.describe);
      continue;
    }
    const command = entry;
    // No handler for yargs: given one, yargs renders the whole help text (cliui over every option) as soon as
    // the handler starts, to cache it for a failure the handler might report, which .fail() above never shows.
    // That was ~25 ms of a one-check run's start-up. The command runs below, once yargs parsed and validated.
    cli.command(command.command, command.describe, (y) => declareCommand(y, command, helpAsked));
  }
  try {
    const parsed = await cli.parseAsync();
    // --help and --version end the process inside yargs; a parse that returns named its command first.
    const ran = loaded.find((command) => commandWord(command) === String(parsed._[0]));
    if (ran !== undefined) exitCode = await invokeCommand(ran, parsed);
  } catch (error) {
    if (!(error instanceof UsageStop)) throw error;
    usageError = withSuggestions(error.message, flags.names, selected ? NOT_TAKEN[commandWord(selected)] : undefined);
  }
  if (usageError !== undefined) {
    process.stderr.write(`${usageError}\nRun with --help for the options.\n`);
    return EXIT.HARNESS;
  }
  return exitCode;
}

/** Whether yargs may print help (or a usage error with it): the flags that show it, before any `--`. */
function asksForHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h' || arg.startsWith('--help=')) return true;
  }
  return false;
}

function reportError(error: unknown): number {
  if (isHarnessError(error)) {
    // format() via the prototype: errors rebuilt from a worker's serialisation have the fields, not the class.
    process.stderr.write(`${HarnessError.prototype.format.call(error)}\n`);
    return EXIT.HARNESS;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error[INTERNAL]: ${message}\n  hint: this is a bug in access-conformance; rerun with DEBUG=access-conformance for the stack.\n`);
  if (DEBUG_ENABLED && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return EXIT.HARNESS;
}
