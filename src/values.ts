/**
 * One grammar for the values of every command: durations (`250ms`, `10s`, `2m`, `1h30m`; a unit is
 * required), booleans (true/false, 1/0, yes/no, on/off), rates (`500`, `500/s`), sizes (`512`, `64kb`,
 * `5mb`) and lists (`a,b` or repeated). Each parser checks the
 * value's real range (a timer cannot wait more than 2^31-1 ms: Node fires it after 1 ms instead) and throws
 * a HarnessError naming the flag, so a typo never starts a run with a nonsense setting.
 */
import { HarnessError, type HarnessErrorCode } from './errors.js';

/** The longest delay a Node timer honours; above it setTimeout fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ValueOptions {
  /** The flag, for messages and `field` (e.g. `--timeout`). */
  flag: string;
  /** Error code of a bad value: USAGE for `run`, LOAD_CONFIG for `load`. */
  code?: HarnessErrorCode;
}

export interface DurationOptions extends ValueOptions {
  /** Inclusive bounds in ms; default (0, MAX_TIMER_MS]. */
  minMs?: number;
  maxMs?: number;
  /** A literal `0` (or `0s`) is accepted and returned as 0: for flags where zero means "off". */
  zeroMeansOff?: boolean;
}

const DURATION_PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h)/gi;
const DURATION_SCALE: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function bad(options: ValueOptions, message: string, hint?: string): HarnessError {
  return new HarnessError(options.code ?? 'USAGE', message, { field: options.flag, ...(hint ? { hint } : {}) });
}

/** The rule every command's --help states for a duration. */
export const DURATION_RULE = 'a duration needs a unit: 500ms, 30s, 2m, 1h30m';

/**
 * Milliseconds of a duration such as `90s`, `1m30s` or `250ms`. A unit is required in every command: a
 * bare `30` once meant 30 ms to `run` and 30 s to `load`, so it is refused with a suggestion instead of
 * being guessed. A bare `0` is accepted where zero means "off" (`zeroMeansOff`).
 */
export function parseDuration(value: string | number, options: DurationOptions): number {
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    if (Number(text) === 0 && options.zeroMeansOff) return 0;
    if (Number(text) === 0) throw bad(options, `${options.flag} must be more than zero; got "${text}"`);
    throw bad(options, `${options.flag} ${text}: add a unit, e.g. ${text}s or ${text}ms`, DURATION_RULE);
  }
  let ms = 0;
  let consumed = '';
  for (const match of text.matchAll(DURATION_PART)) {
    ms += Number(match[1]) * DURATION_SCALE[match[2]!.toLowerCase()]!;
    consumed += match[0];
  }
  if (consumed === '' || consumed.replace(/\s+/g, '') !== text.replace(/\s+/g, '')) {
    throw bad(options, `"${text}" is not a duration: ${options.flag} must be a duration such as 250ms, 10s, 2m or 1h30m`, DURATION_RULE);
  }
  const maxMs = options.maxMs ?? MAX_TIMER_MS;
  if (!Number.isFinite(ms) || ms < 0 || (ms === 0 && !options.zeroMeansOff)) throw bad(options, `${options.flag} must be more than zero; got "${text}"`);
  if (ms === 0) return 0;
  if (options.minMs !== undefined && ms < options.minMs) throw bad(options, `${options.flag} must be at least ${formatDuration(options.minMs)}; got "${text}"`);
  if (ms > maxMs) throw bad(options, `${options.flag} must be at most ${formatDuration(maxMs)}; got "${text}"`);
  return Math.round(ms);
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** The words a boolean takes, in flags, ACCESS_CONFORMANCE_* variables and Action inputs alike. */
export const BOOLEAN_RULE = 'true/false, 1/0, yes/no or on/off';

/** `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off` (any case); anything else is a usage error naming `flag`. */
export function parseBoolean(value: string | boolean | number, options: ValueOptions): boolean {
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  const shown = /^[\x20-\x7e]{0,40}$/.test(String(value)) ? `"${String(value)}"` : '(not shown)';
  throw bad(options, `${options.flag} takes ${BOOLEAN_RULE}; got ${shown}`);
}

export interface RateOptions extends ValueOptions {
  /** Inclusive upper bound, requests per second; default 1,000,000. */
  max?: number;
}

/** Requests per second: `20`, `20/s`, `20/sec`. */
export function parseRate(value: string | number, options: RateOptions): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*s(?:ec(?:ond)?)?)?\s*$/i.exec(String(value));
  const rate = match ? Number(match[1]) : NaN;
  if (!Number.isFinite(rate) || rate <= 0) {
    throw bad(options, `${options.flag} must be a positive number of requests per second, like 20/s (got "${value}")`);
  }
  const max = options.max ?? 1_000_000;
  if (rate > max) throw bad(options, `${options.flag} must be at most ${max}/s (got "${value}")`);
  return rate;
}

export interface SizeOptions extends ValueOptions {
  minBytes?: number;
  maxBytes: number;
}

const SIZE_SCALE: Record<string, number> = { '': 1, b: 1, kb: 1024, k: 1024, mb: 1024 ** 2, m: 1024 ** 2, gb: 1024 ** 3, g: 1024 ** 3 };

/** Bytes of a size: `512`, `64kb`, `5mb` (binary multiples). */
export function parseSize(value: string | number, options: SizeOptions): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)\s*$/i.exec(String(value));
  const bytes = match ? Number(match[1]) * SIZE_SCALE[match[2]!.toLowerCase()]! : NaN;
  if (!Number.isFinite(bytes)) throw bad(options, `${options.flag} must be a size such as 512, 64kb or 5mb (got "${value}")`);
  const min = options.minBytes ?? 1;
  if (bytes < min || bytes > options.maxBytes) {
    throw bad(options, `${options.flag} must be between ${min} and ${options.maxBytes} bytes (got "${value}")`);
  }
  return Math.round(bytes);
}

export interface IntegerOptions extends ValueOptions {
  min: number;
  max: number;
}

/** A whole number within [min, max]. */
export function parseInteger(value: string | number | undefined, options: IntegerOptions): number {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').trim() || NaN);
  if (!Number.isInteger(n) || n < options.min || n > options.max) {
    throw bad(options, `${options.flag} must be a whole number from ${options.min} to ${options.max} (got ${String(value)})`);
  }
  return n;
}

/** `a,b` and repeated flags alike: trimmed, empty items dropped. */
export function parseList(values: ReadonlyArray<string | number> | string | number | undefined): string[] {
  if (values === undefined) return [];
  const items = Array.isArray(values) ? values : [values];
  return items.flatMap((item) => String(item).split(',')).map((item) => item.trim()).filter((item) => item.length > 0);
}

/** `2 min`, `1.5 s`, `250 ms`: a duration in a header or message. */
export function formatDuration(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Math.round(ms)} ms`;
}

export interface ListenAddress {
  /** As bound: an IPv6 literal without its brackets. */
  host: string;
  /** 0 = any free port (the bound one is printed). */
  port: number;
}

const LISTEN_ADDRESS = /^(?:\[([0-9a-f:.%a-z]+)\]|([a-z0-9.-]+)):(\d{1,5})$/i;

/**
 * `HOST:PORT` of a socket the user asks the harness to open: `127.0.0.1:9464`, `localhost:0`,
 * `[::1]:9464`, `0.0.0.0:9464`. The host is required (no default bind to every interface: the user names
 * what is exposed); an IPv6 literal goes in brackets.
 */
export function parseListenAddress(value: string, options: ValueOptions): ListenAddress {
  const text = value.trim();
  const match = LISTEN_ADDRESS.exec(text);
  const hint = 'Write HOST:PORT, e.g. 127.0.0.1:9464, localhost:0 (any free port) or [::1]:9464';
  if (!match) throw bad(options, `${options.flag} "${text}" is not HOST:PORT`, hint);
  const port = Number(match[3]);
  if (port > 65_535) throw bad(options, `${options.flag} port ${port} is out of range (0 to 65535)`, hint);
  const host = match[1] ?? match[2]!;
  if (match[1] !== undefined && !host.includes(':')) throw bad(options, `${options.flag} "${text}": brackets are for IPv6 addresses`, hint);
  return { host, port };
}
