/**
 * Defaults that several rooms share: the CLI shows them, the client and the engine apply them, the fault
 * runner passes them on. No imports: the CLI reads this before anything heavy loads.
 */

/** Checks in flight at once when `--concurrency` is not given. */
export const DEFAULT_CONCURRENCY = 8;

/** Per-request timeout when `--timeout` is not given (ms). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Longest 429 Retry-After a request waits for when `--retry-after-cap` is not given (ms): the CLI, the engine and library clients alike. */
export const DEFAULT_RETRY_AFTER_CAP_MS = 10_000;


/**
 * Operations a run checks one by one (ruling 34) when `--max-operations` is not given. Each called
 * operation adds 15 to 18 results and up to 66 requests; a run plans them all before it starts. Measured
 * (BENCHMARKS.md, "Operations at scale"): 1,000 operations run to the end in bounded memory; the bound
 * stops a description of tens of thousands of operations before its first check, naming the flag, rather
 * than a run of hours.
 */
export const DEFAULT_MAX_OPERATIONS = 2_000;

/** Requests in a row that timed out, could not connect or were rate-limited before a run gives up. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;

/** The Client Secret's service-domain segment `serve` writes: the one the official SDKs check. */
export const DEFAULT_SECRET_DOMAIN = 'conductorone.com';

/**
 * Worker processes of the fault self-verification when AC_FAULTS_CONCURRENCY is not set. Each process runs
 * faults one after another in one kept suite thread; a fault's run mostly waits (runs settling, key
 * rotation), so more processes than cores still shorten it: 118 s with 2 processes before the thread was
 * kept, 63 s with 2 and 46 s with 4 after, on this 2-core machine (BENCHMARKS.md).
 */
export const DEFAULT_FAULT_PROCESSES = 3;

/** The self-verification's worker processes: AC_FAULTS_CONCURRENCY, or DEFAULT_FAULT_PROCESSES. */
export function faultProcesses(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.AC_FAULTS_CONCURRENCY ?? DEFAULT_FAULT_PROCESSES);
}
