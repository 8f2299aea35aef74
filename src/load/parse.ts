/**
 * Parsing of the load flags: durations (`10s`, `2m`, `1h30m`, `250ms`), rates (`500`, `500/s`) and ramp
 * stages (`30s:100,1m:500`). Every error is a LOAD_CONFIG HarnessError naming the flag.
 */
import { parseDuration } from '../values.js';
import { HarnessError } from '../errors.js';

function configError(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('LOAD_CONFIG', message, { field, hint });
}

/** Milliseconds of a duration (`10s`, `1h30m`, `250ms`); a unit is required, as in every command. */
export function parseDurationMs(text: string, field = '--duration'): number {
  return parseDuration(text, { flag: field, code: 'LOAD_CONFIG' });
}

/** Requests per second: `500` or `500/s`. */
export function parseRate(text: string | number, field = '--rate'): number {
  const raw = String(text).trim().replace(/\/s$/, '');
  const rate = Number(raw);
  if (raw === '' || !Number.isFinite(rate) || rate <= 0) {
    throw configError(`"${text}" is not a rate`, field, 'Give requests per second, e.g. --rate 500 (or 500/s).');
  }
  return rate;
}

/** One linear ramp: from the previous stage's target to `target` over `durationMs`. */
export interface Stage {
  durationMs: number;
  /** Requests per second at the end of the stage. */
  target: number;
}

export function parseStages(text: string, field = '--stages'): Stage[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) throw configError('no stages given', field, "Write e.g. --stages '30s:100,1m:500'.");
  return parts.map((part) => {
    const pieces = part.split(':');
    if (pieces.length !== 2) throw configError(`"${part}" is not a stage`, field, "Write duration:rate, e.g. '30s:100,1m:500'.");
    const target = Number(pieces[1].replace(/\/s$/, ''));
    if (!Number.isFinite(target) || target < 0) throw configError(`"${part}" has no valid rate`, field);
    return { durationMs: parseDurationMs(pieces[0], field), target };
  });
}

/** A whole number of at least `min`. */
export function parseCount(value: unknown, field: string, min = 1): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min) throw configError(`${field} must be a whole number of at least ${min}, got ${String(value)}`, field);
  return n;
}

/** `1.5 s`, `230 ms`, `87 µs` for messages and reports. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : 2)} ms`;
  return `${Math.round(ms * 1000)} µs`;
}
