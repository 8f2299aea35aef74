/**
 * The command line before yargs reads it, and yargs' complaints after: yargs turns `--strict=maybe` (or
 * ACCESS_CONFORMANCE_STRICT=yes) into `false` without a word, and says only "Unknown argument: reportr".
 * Here a boolean flag's `=value` is read with the one boolean grammar (values.ts) and rewritten as `--flag`
 * or `--no-flag`, anything else being a usage error naming the flag; an unknown flag gets the nearest
 * declared one.
 */
import { parseBoolean } from '../values.js';
import { closest } from '../spelling.js';
import type { AnyCommand } from './command.js';
import type { OptionTable } from './option-grammar.js';

/** The command named on the command line (its first word that is not a flag), if any. */
export function selectedCommand(argv: readonly string[], commands: readonly AnyCommand[]): AnyCommand | undefined {
  const name = argv.find((arg) => !arg.startsWith('-'));
  return commands.find((command) => command.command.split(' ')[0] === name);
}

/** A command's flags (kebab-case) and which of them are booleans. */
export function commandFlags(command: AnyCommand): { names: Set<string>; booleans: Set<string> } {
  const names = new Set<string>();
  const booleans = new Set<string>();
  for (const [name, row] of Object.entries(command.options as OptionTable)) {
    names.add(name);
    if (row.yargs.type === 'boolean') booleans.add(name);
  }
  return { names, booleans };
}

/** `keepContainer` and `keep-container` alike (yargs accepts both spellings). */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `--flag=value` of a boolean flag → `--flag` / `--no-flag`; a value outside the grammar throws USAGE. */
export function normalizeBooleans(argv: readonly string[], booleans: ReadonlySet<string>): string[] {
  const out: string[] = [];
  let rest = false;
  for (const arg of argv) {
    const match = rest ? null : /^--([^=]+)=(.*)$/s.exec(arg);
    if (arg === '--') rest = true;
    const name = match ? kebab(match[1]!) : undefined;
    if (!match || name === undefined || !booleans.has(name)) {
      out.push(arg);
      continue;
    }
    out.push(parseBoolean(match[2]!, { flag: `--${name}` }) ? `--${name}` : `--no-${name}`);
  }
  return out;
}

/** A flag that takes a value, given without one: where yargs would quietly read "" or the next flag. */
export interface MissingValue {
  flag: string;
  /** The flag that came next, when the value was taken to be one. */
  next?: string;
}

/**
 * The first flag of `valueFlags` given without its value: last on the line, `--flag=` with nothing after
 * the `=`, or followed by another flag (`--max-duration --quiet`). A value may be `-` (standard input) or
 * a negative number; any other value that starts with `-` must be given as `--flag=value`.
 */
export function missingValue(argv: readonly string[], valueFlags: ReadonlySet<string>): MissingValue | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--') return undefined;
    const match = /^--([^=]+)(=(.*))?$/s.exec(arg);
    if (!match || !valueFlags.has(kebab(match[1]!))) continue;
    const flag = `--${kebab(match[1]!)}`;
    if (match[2] !== undefined) {
      if (match[3] === '') return { flag };
      continue;
    }
    const next = argv[index + 1];
    if (next === undefined) return { flag };
    if (next.startsWith('-') && next !== '-' && !/^-\d/.test(next)) return { flag, next };
  }
  return undefined;
}

/** yargs' "Unknown argument(s): a, b" with the nearest declared flag of each, when one is near. */
export function withSuggestions(message: string, flags: ReadonlySet<string>, notTaken: Readonly<Record<string, string>> = {}): string {
  const match = /^Unknown arguments?: (.+)$/.exec(message.trim());
  if (!match) return message;
  const known = [...flags, 'help', 'version'];
  const hints = match[1]!
    .split(', ')
    .map((unknown) => {
      const bare = unknown.replace(/^-+/, '').replace(/=.*$/, '');
      // A shared flag this command leaves out on purpose says why.
      if (Object.prototype.hasOwnProperty.call(notTaken, kebab(bare))) return `--${kebab(bare)}: ${notTaken[kebab(bare)]}`;
      const near = closest(kebab(bare), known, Math.max(2, Math.floor(bare.length / 3)));
      return near === undefined ? undefined : `--${bare}: did you mean --${near}?`;
    })
    .filter((hint): hint is string => hint !== undefined);
  return hints.length === 0 ? message : `${message}\n${hints.join('\n')}`;
}
