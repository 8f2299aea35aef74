/**
 * Request pacing: a token bucket shared by every request of one client, and the 429 Retry-After rule.
 */
import { DEFAULT_RETRY_AFTER_CAP_MS } from '../defaults.js';

/** Wait when a 429 carries no usable Retry-After. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

export interface Pacer {
  /** Resolves when one more request may start. */
  acquire(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** No limit: `acquire` resolves at once. */
export const unlimited: Pacer = { acquire: async () => {} };

/**
 * A token bucket of `perSecond` tokens a second and a burst of max(1, perSecond), written as GCRA: each
 * caller reserves the next slot before sleeping, so concurrent callers are served in order and never
 * overshoot the rate.
 */
export function tokenBucket(perSecond: number, now: () => number = Date.now): Pacer {
  if (!(perSecond > 0) || !Number.isFinite(perSecond)) return unlimited;
  const interval = 1000 / perSecond;
  const tolerance = (Math.max(1, perSecond) - 1) * interval;
  // Theoretical arrival time of the next request when the bucket is drained at exactly the rate.
  let tat = 0;
  return {
    async acquire() {
      const t = now();
      tat = Math.max(tat, t);
      const wait = tat - tolerance - t;
      tat += interval;
      if (wait > 0) await sleep(wait);
    },
  };
}

/**
 * Milliseconds to wait from a Retry-After value: delta seconds or an HTTP date (RFC 9110 §10.2.3),
 * bounded to [0, capMs] (by default the transport's own cap, DEFAULT_RETRY_AFTER_CAP_MS: one default for the
 * CLI and library users). Absent or unreadable gives the default wait.
 */
export function retryAfterMs(value: string | undefined, nowMs: number = Date.now(), capMs: number = DEFAULT_RETRY_AFTER_CAP_MS): number {
  return Math.min(capMs, requestedRetryAfterMs(value, nowMs));
}

/**
 * What the target asked for, unbounded (an hour, a date in 2100): the transport compares it with its cap
 * and the request's time left rather than silently waiting for less than asked.
 */
export function requestedRetryAfterMs(value: string | undefined, nowMs: number = Date.now()): number {
  if (value === undefined || value.trim() === '') return DEFAULT_RETRY_AFTER_MS;
  const text = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    const date = Date.parse(text);
    if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_MS;
    ms = date - nowMs;
  }
  return Number.isFinite(ms) ? Math.max(0, ms) : Number.MAX_SAFE_INTEGER;
}

export { sleep };
