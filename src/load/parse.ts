/**
 * Parsing of the load flags: durations (`10s`, `2m`, `1h30m`, `250ms`), rates (`500`, `500/s`) and ramp
 * stages (`30s:100,1m:500`). Every error is a LOAD_CONFIG HarnessError naming the flag.
 */
import { HarnessError } from '../errors.js';

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const DURATION_SCALE: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function configError(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('LOAD_CONFIG', message, { field, hint });
}

/** Milliseconds of a duration; a bare number is seconds (k6's convention). */
export function parseDurationMs(text: string, field = '--duration'): number {
  const trimmed = text.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    ms = 0;
    let consumed = '';
    for (const match of trimmed.matchAll(DURATION_PART)) {
      ms += Number(match[1]) * DURATION_SCALE[match[2]];
      consumed += match[0];
    }
    if (consumed !== trimmed || consumed === '') {
      throw configError(`"${text}" is not a duration`, field, 'Write e.g. 500ms, 10s, 2m or 1h30m.');
    }
  }
  if (!(ms > 0) || !Number.isFinite(ms)) throw configError(`a duration must be more than zero, got "${text}"`, field);
  return ms;
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
