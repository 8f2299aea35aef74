/**
 * The option grammar: a flag is one row (what yargs reads, the default as a user would type it, and the
 * parser that turns the raw value into the typed one). A command's table is a record of rows; yargs gets
 * its options from it (`yargsOptions`), and the handler gets one typed object (`parseOptions`) whose type
 * is derived from the table, as vitest derives its CLI from one config type. Defaults live in the rows
 * only: the same parser reads a default and a given value, so nothing deeper re-applies one.
 */
import type { Options } from 'yargs';
import type { ClientSettings } from '../client/settings.js';
import { HarnessError } from '../errors.js';
import { BOOLEAN_RULE, DURATION_RULE, parseBoolean, parseDuration, parseInteger, parseList, type DurationOptions } from '../values.js';

/**
 * What a flag's value is, as --help shows it: yargs' own tags for text (`[string]`), lists (`[array]`),
 * choices and booleans; for the rest a tag of its own (`[duration]`, `[number]`, `[rate]`, …), since yargs
 * would call them `[string]` (they reach the parser as text, so the parser can name a bad value).
 */
export type ValueKind = 'text' | 'list' | 'boolean' | 'choice' | 'duration' | 'number' | `custom:${string}`;

/** The raw value of one flag as yargs hands it over (or the row's default). */
export type RawValue = string | number | boolean | ReadonlyArray<string | number> | undefined;

export interface OptionRow<T> {
  /** What yargs reads: type, array, choices, describe. Never a default: `parse` applies it. */
  readonly yargs: Options;
  readonly kind: ValueKind;
  /**
   * A shared row's description in each command that takes it (perCommand), so that `serve --help` says what
   * --max-duration does in serve, not in run, load and send; `yargs.describe` is the general one.
   */
  readonly describeIn?: Readonly<Record<string, string>>;
  /** The default as a user would type it (shown in --help and docs/running.md); absent: none. */
  readonly default?: string | boolean | readonly string[];
  /** The raw value (or the default) → the typed value; throws a HarnessError naming `flag`. */
  readonly parse: (raw: RawValue, flag: string) => T;
  /** The client setting this flag fills (clientRow): `clientSettings` hands it to the client, nothing else copies it. */
  readonly client?: keyof ClientSettings;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds rows of many value types
export type OptionTable = Readonly<Record<string, OptionRow<any>>>;

/** `max-duration` → `maxDuration`. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Rest}` ? `${Head}${Capitalize<CamelCase<Rest>>}` : S;

/** The typed values of a table, keyed in camelCase: what a handler receives. */
export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T & string as CamelCase<K>]: T[K] extends OptionRow<infer V> ? V : never };

export function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** The tag --help shows after a kind yargs has no type for; undefined: yargs' own tag. */
export function kindTag(kind: ValueKind): string | undefined {
  if (kind === 'duration' || kind === 'number') return kind;
  return kind.startsWith('custom:') ? kind.slice('custom:'.length) : undefined;
}

/** What a row says in `command`'s --help: its description there, and its value's tag when yargs has none. */
export function describeRow(row: OptionRow<unknown>, command: string): string {
  const text = row.describeIn?.[command] ?? String(row.yargs.describe ?? '');
  const tag = kindTag(row.kind);
  return tag === undefined ? text : `${text} [${tag}]`;
}

/**
 * The rows as `command`'s yargs options: the description for that command, the default shown in --help
 * (applied by the row's parser). A kind yargs has no type for is declared without one (so yargs does not
 * tag it `[string]`); main() turns yargs' number parsing off, so its value still arrives as typed.
 */
export function yargsOptions(table: OptionTable, command: string, described = true): Record<string, Options> {
  return Object.fromEntries(
    Object.entries(table).map(([name, row]) => {
      const shown = row.default === undefined || (Array.isArray(row.default) && row.default.length === 0) ? {} : { defaultDescription: String(row.default) };
      const { type, ...rest } = row.yargs;
      const typed = kindTag(row.kind) === undefined ? { type } : {};
      if (!described) return [name, { ...rest, ...typed }];
      return [name, { ...rest, ...typed, describe: describeRow(row, command), ...shown }];
    }),
  );
}

/** The same row with a description of its own in each command that takes it (a shared row). */
export function perCommand<T>(row: OptionRow<T>, describeIn: Readonly<Record<string, string>>): OptionRow<T> {
  return { ...row, describeIn };
}

/** Every row parsed from yargs' arguments (kebab-case keys), each with its flag for messages. */
export function parseOptions<T extends OptionTable>(table: T, args: Readonly<Record<string, unknown>>): OptionValues<T> {
  const values: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(table)) {
    const given = args[name] as RawValue;
    values[camelCase(name)] = row.parse(given === undefined ? (row.default as RawValue) : given, `--${name}`);
  }
  return values as OptionValues<T>;
}

/** The same row, tagged with the ClientSettings field its value fills. */
export function clientRow<T>(row: OptionRow<T>, field: keyof ClientSettings): OptionRow<T> {
  return { ...row, client: field };
}

/**
 * The client settings of a command: every row of the table tagged with a ClientSettings field, its parsed
 * value under that field (absent values left out, so the client applies its own default: one default).
 */
export function clientSettings(table: OptionTable, values: Readonly<Record<string, unknown>>): ClientSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(table)) {
    const value = values[camelCase(name)];
    if (row.client !== undefined && value !== undefined) settings[row.client] = value;
  }
  return settings as ClientSettings;
}

function usage(flag: string, message: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', message, { field: flag, ...(hint ? { hint } : {}) });
}

/** One value of a flag that is not repeatable (yargs makes an array of a flag given twice). */
function single(raw: RawValue, flag: string): string | number | boolean | undefined {
  if (Array.isArray(raw)) {
    if (raw.length > 1) throw usage(flag, `${flag} was given ${raw.length} times; give it once`);
    return raw[0];
  }
  return raw as string | number | boolean | undefined;
}

interface RowText {
  describe: string;
}

/** Text: trimmed; given but empty is a usage error (an empty variable never reaches here, env-args drops it). */
export function textRow(spec: RowText & { default: string }): OptionRow<string>;
export function textRow(spec: RowText): OptionRow<string | undefined>;
export function textRow(spec: RowText & { default?: string }): OptionRow<string | undefined> {
  return {
    yargs: { type: 'string', describe: spec.describe },
    kind: 'text',
    ...(spec.default === undefined ? {} : { default: spec.default }),
    parse: (raw, flag) => {
      const value = single(raw, flag);
      if (value === undefined) return undefined;
      const text = String(value).trim();
      if (text === '') throw usage(flag, `${flag} must not be empty`);
      return text;
    },
  };
}

/** A repeatable, comma-separated list. */
export function listRow(spec: RowText & { check?: (item: string, flag: string) => void }): OptionRow<string[]> {
  return {
    yargs: { type: 'string', array: true, describe: spec.describe },
    kind: 'list',
    parse: (raw, flag) => {
      const items = parseList(raw as ReadonlyArray<string | number> | string | number | undefined);
      for (const item of items) spec.check?.(item, flag);
      return items;
    },
  };
}

/** On/off: `--flag`, `--no-flag`, `--flag=yes|no|1|0|on|off|true|false` (main.ts checks the `=` forms first). */
export function booleanRow(spec: RowText & { default?: boolean }): OptionRow<boolean> {
  const fallback = spec.default ?? false;
  return {
    yargs: { type: 'boolean', describe: spec.describe },
    kind: 'boolean',
    default: fallback,
    parse: (raw, flag) => {
      const value = single(raw, flag);
      return value === undefined ? fallback : parseBoolean(value, { flag });
    },
  };
}

type DurationSpec = RowText & Omit<DurationOptions, 'flag' | 'code'>;

/** A duration with a unit (values.ts); the value is milliseconds. */
export function durationRow(spec: DurationSpec & { default: string }): OptionRow<number>;
export function durationRow(spec: DurationSpec): OptionRow<number | undefined>;
export function durationRow(spec: DurationSpec & { default?: string }): OptionRow<number | undefined> {
  const { describe, default: fallback, ...bounds } = spec;
  return {
    yargs: { type: 'string', describe },
    kind: 'duration',
    ...(fallback === undefined ? {} : { default: fallback }),
    parse: (raw, flag) => {
      const value = single(raw, flag);
      if (value === undefined) return undefined;
      if (typeof value === 'boolean') throw usage(flag, `${flag} needs a value (${DURATION_RULE})`);
      return parseDuration(value, { flag, ...bounds });
    },
  };
}

type IntegerSpec = RowText & { min: number; max: number };

/** A whole number within [min, max]. */
export function integerRow(spec: IntegerSpec & { default: number }): OptionRow<number>;
export function integerRow(spec: IntegerSpec): OptionRow<number | undefined>;
export function integerRow(spec: IntegerSpec & { default?: number }): OptionRow<number | undefined> {
  return {
    // A string to yargs: its number type turns "ten" into NaN before the parser could name the value.
    yargs: { type: 'string', describe: spec.describe },
    kind: 'number',
    ...(spec.default === undefined ? {} : { default: String(spec.default) }),
    parse: (raw, flag) => {
      const value = single(raw, flag);
      if (value === undefined) return undefined;
      if (typeof value === 'boolean') throw usage(flag, `${flag} needs a whole number from ${spec.min} to ${spec.max}`);
      return parseInteger(value, { flag, min: spec.min, max: spec.max });
    },
  };
}

/** One of a fixed set of words. */
export function choiceRow<const C extends string>(spec: RowText & { choices: readonly C[]; default: C }): OptionRow<C>;
export function choiceRow<const C extends string>(spec: RowText & { choices: readonly C[] }): OptionRow<C | undefined>;
export function choiceRow<const C extends string>(spec: RowText & { choices: readonly C[]; default?: C }): OptionRow<C | undefined> {
  return {
    yargs: { type: 'string', choices: [...spec.choices], describe: spec.describe },
    kind: 'choice',
    ...(spec.default === undefined ? {} : { default: spec.default }),
    parse: (raw, flag) => {
      const value = single(raw, flag);
      if (value === undefined) return undefined;
      const found = spec.choices.find((choice) => choice === String(value));
      if (found === undefined) throw usage(flag, `${flag} takes ${spec.choices.join(', ')} (got "${String(value).slice(0, 40)}")`);
      return found;
    },
  };
}

/** A value parsed by a custom parser (rates, stages), kept as text for yargs; `tag` names it in --help. */
export function customRow<T>(spec: RowText & { tag: string; parse: (value: string, flag: string) => T }): OptionRow<T | undefined> {
  return {
    yargs: { type: 'string', describe: spec.describe },
    kind: `custom:${spec.tag}`,
    parse: (raw, flag) => {
      const value = single(raw, flag);
      return value === undefined ? undefined : spec.parse(String(value), flag);
    },
  };
}

/** The names of the flags that take a value (every kind but boolean): given bare, they are a usage error. */
export function valueFlags(table: OptionTable): Set<string> {
  return new Set(Object.entries(table).filter(([, row]) => row.kind !== 'boolean').map(([name]) => name));
}

/**
 * What a command's --help says about values, under its options: the grammar of the kinds its table has
 * (a command without a duration flag does not explain durations); undefined when there is nothing to say.
 */
export function grammarNote(table: OptionTable): string | undefined {
  const kinds = new Set(Object.values(table).map((row) => row.kind));
  const notes = [
    kinds.has('duration') ? 'Durations need a unit (500ms, 30s, 2m, 1h30m; a bare number is refused).' : undefined,
    kinds.has('boolean') ? `Booleans take ${BOOLEAN_RULE} (--flag=no, or --no-flag).` : undefined,
    [...kinds].some((kind) => kind !== 'boolean') ? 'A flag that takes a value needs it: given without one, it is a usage error (exit 2).' : undefined,
  ].filter((note): note is string => note !== undefined);
  return notes.length === 0 ? undefined : notes.join(' ');
}
