/**
 * Defaults that several rooms share: the CLI shows them, the client and the engine apply them, the fault
 * runner passes them on. No imports: the CLI reads this before anything heavy loads.
 */

/** Checks in flight at once when `--concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 8;

/** Per-request timeout when `--timeout` is not given (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The Client Secret's service-domain segment `serve` writes: the one the official SDKs check. */
export const DEFAULT_SECRET_DOMAIN = 'conductorone.com';
