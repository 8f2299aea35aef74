/**
 * ACCESS_CONFORMANCE_<FLAG> environment variables as flags of the command being run. yargs' own .env()
 * applies every such variable to every command, so under strict parsing a variable meant for `run` (e.g.
 * ACCESS_CONFORMANCE_PROFILE in a CI job) would make `list` fail with "Unknown argument". Here a variable
 * becomes a flag only for a command that declares it, and only when the command line does not give it. An
 * empty variable counts as unset (CI templates often render an unset input as ""). A boolean variable takes
 * the grammar a boolean flag takes (true/false, 1/0, yes/no, on/off); anything else is a usage error that
 * names the variable.
 */
import { parseBoolean } from '../values.js';
import { commandFlags, selectedCommand } from './argv.js';
import type { AnyCommand } from './command.js';

export const ENV_PREFIX = 'ACCESS_CONFORMANCE_';

/** The variable that gives a flag: `max-duration` → ACCESS_CONFORMANCE_MAX_DURATION (envArgs reads it back). */
export function envVariableOf(flag: string): string {
  return `${ENV_PREFIX}${flag.toUpperCase().replaceAll('-', '_')}`;
}

function givenOnCommandLine(argv: readonly string[], flag: string): boolean {
  const camel = flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  return argv.some((arg) => [flag, camel].some((s) => arg === `--${s}` || arg.startsWith(`--${s}=`) || arg === `--no-${s}`));
}

export interface EnvArgs {
  /** Flags to append to argv, as `--flag=value` (`--flag` / `--no-flag` for a boolean). */
  args: string[];
  /** Variables no command declares: probably typos, worth a note. */
  unknown: string[];
}

export function envArgs(argv: readonly string[], commands: readonly AnyCommand[], env: NodeJS.ProcessEnv = process.env): EnvArgs {
  const variables = Object.keys(env).filter((name) => name.startsWith(ENV_PREFIX) && env[name] !== undefined && env[name]!.trim() !== '');
  if (variables.length === 0) return { args: [], unknown: [] };
  const selected = selectedCommand(argv, commands);
  const everyName = new Set(commands.flatMap((command) => [...commandFlags(command).names]));
  const own = selected ? commandFlags(selected) : { names: new Set<string>(), booleans: new Set<string>() };
  const args: string[] = [];
  const unknown: string[] = [];
  for (const variable of variables) {
    const flag = variable.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, '-');
    const value = env[variable]!;
    if (own.names.has(flag)) {
      if (givenOnCommandLine(argv, flag)) continue;
      if (own.booleans.has(flag)) args.push(parseBoolean(value, { flag: variable }) ? `--${flag}` : `--no-${flag}`);
      else args.push(`--${flag}=${value}`);
    } else if (!everyName.has(flag)) {
      unknown.push(variable);
    }
  }
  return { args, unknown };
}
