/**
 * The load driver's defaults and names, importing nothing but the shared defaults and the spec's numbers: the CLI's option table
 * quotes them in --help before any of the driver loads.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_TIMEOUT_MS } from '../defaults.js';
import { PAGE_SIZE_DEFAULT, WEBHOOK_JWT_MAX_EXP_SECONDS } from '../spec-numbers.js';

export const SCENARIOS = ['webhook-hmac', 'webhook-jwt', 'webhook-duplicates', 'token', 'pages'] as const;

/** What the driver uses for a flag left out. */
export const LOAD_DEFAULTS = { connections: 64, maxInFlight: 10_000, bodyBytes: 1024, timeoutMs: DEFAULT_TIMEOUT_MS, dupPool: 100, pageSize: PAGE_SIZE_DEFAULT } as const;

/** Applied when no --threshold names errors: a run where most requests fail must not exit 0. */
export const DEFAULT_ERROR_THRESHOLD = 'errors<1%';

/** `--strict`: no tolerance. Every request gets the scenario's expected answer and no arrival is dropped. */
export const STRICT_THRESHOLDS = ['errors<=0%', 'dropped<=0%'] as const;

/** §8: a webhook JWT's exp is within 10 minutes (the longest `--exp-in`). */
export { WEBHOOK_JWT_MAX_EXP_SECONDS };

/** `--abort-after`'s default: long enough for connections, JIT and a target's caches to warm up. */
export const DEFAULT_ABORT_AFTER_MS = 10_000;

/**
 * `load --workers`' default: a sending thread per core, leaving one core for a target on the same machine
 * (the embedded reference, a local build), and at least one.
 */
export function defaultWorkers(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}
