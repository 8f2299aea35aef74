/**
 * ACCESS_CONFORMANCE_<FLAG> environment variables as flags of the command being run. yargs' own .env()
 * applies every such variable to every command, so under strict parsing a variable meant for `run` (e.g.
 * ACCESS_CONFORMANCE_PROFILE in a CI job) would make `list` fail with "Unknown argument". Here a variable
 * becomes a flag only for a command that declares it, and only when the command line does not give it.
 */
import yargs from 'yargs';
import type { CliCommand } from './command.js';

export const ENV_PREFIX = 'ACCESS_CONFORMANCE_';

/** Declared option names of a command (kebab-case) and their aliases. */
function optionNames(command: CliCommand<never>): Set<string> {
  // getOptions() is public in yargs' own API but missing from @types/yargs.
  const built = command.builder(yargs([])) as unknown as { getOptions(): { key: Record<string, unknown>; alias: Record<string, string[]> } };
  const options = built.getOptions();
  const names = new Set(Object.keys(options.key));
  for (const [name, aliases] of Object.entries(options.alias)) {
    names.add(name);
    for (const alias of aliases) names.add(alias);
  }
  names.delete('help');
  names.delete('version');
  return names;
}

function givenOnCommandLine(argv: readonly string[], names: ReadonlySet<string>, flag: string): boolean {
  const spellings = [flag, ...[...names].filter((n) => n !== flag && n.replace(/-/g, '') === flag.replace(/-/g, ''))];
  return argv.some((arg) => spellings.some((s) => arg === `--${s}` || arg.startsWith(`--${s}=`) || arg === `--no-${s}`));
}

export interface EnvArgs {
  /** Flags to append to argv, as `--flag=value`. */
  args: string[];
  /** Variables no command declares: probably typos, worth a note. */
  unknown: string[];
}

export function envArgs(
  argv: readonly string[],
  commands: ReadonlyArray<CliCommand<never>>,
  env: NodeJS.ProcessEnv = process.env,
): EnvArgs {
  const variables = Object.keys(env).filter((name) => name.startsWith(ENV_PREFIX) && env[name] !== undefined);
  if (variables.length === 0) return { args: [], unknown: [] };
  const commandName = argv.find((arg) => !arg.startsWith('-'));
  const selected = commands.find((command) => command.command.split(' ')[0] === commandName);
  const everyName = new Set(commands.flatMap((command) => [...optionNames(command)]));
  const own = selected ? optionNames(selected) : new Set<string>();
  const args: string[] = [];
  const unknown: string[] = [];
  for (const variable of variables) {
    const flag = variable.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, '-');
    if (own.has(flag)) {
      if (!givenOnCommandLine(argv, own, flag)) args.push(`--${flag}=${env[variable]}`);
    } else if (!everyName.has(flag)) {
      unknown.push(variable);
    }
  }
  return { args, unknown };
}
