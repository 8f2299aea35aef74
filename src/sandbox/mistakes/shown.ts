/**
 * How what a client sent is shown in a sentence: quoted, one short line, every control character made
 * visible (src/escape.ts). Only the client's own values pass through here, never a secret of the tenant.
 */
import { shortText } from '../../escape.js';

export function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  // JSON.stringify writes Infinity and NaN as null: a number is shown as JavaScript reads it.
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return `"${shortText(text, 120).replace(/"/g, '\\"')}"`;
}

/** A JSON value's kind in words ("a string", "an array of 2"). */
export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${shown(value)}`;
  return `${typeof value === 'number' ? 'the number' : typeof value} ${shown(value)}`;
}

/** Seconds as the sentence shows them: "1800 s (30 min)". */
export function seconds(value: number): string {
  const whole = Math.round(value);
  return Math.abs(whole) >= 120 ? `${whole} s (${Math.round(whole / 60)} min)` : `${whole} s`;
}

/** A time against the server's clock: "1800 s (30 min) ahead of" / "… behind". */
export function offsetWords(at: number, now: number): string {
  const delta = at - now;
  return `${seconds(Math.abs(delta))} ${delta >= 0 ? 'ahead of' : 'behind'}`;
}

/** True when the request carries a header of that (lower-case) name. */
export function firstPresent(headers: Record<string, string>, names: readonly string[]): string | undefined {
  return names.find((name) => headers[name] !== undefined);
}

/**
 * The scheme of an `Authorization` value, as a sentence may show it: only a short word followed by blanks
 * (`Basic …`, `Token …`). Anything else may be a credential pasted bare (a Client Secret, `Bearer:<token>`),
 * and a sandbox never echoes a credential, not even cut short.
 */
export function schemeShown(authorization: string): string {
  const scheme = /^\s*([A-Za-z][\w-]{0,19})\s+\S/.exec(authorization)?.[1];
  return scheme === undefined ? '(none: the value is not "<scheme> <credentials>", and it is not shown, as it may be a credential)' : shown(scheme);
}
