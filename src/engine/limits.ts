/**
 * The bounds of a run: how long one check may take, how long the whole run may take, when it gives up on
 * a target that stopped answering, and how long a 429 may hold a request.
 */

/** A check makes many requests (a pagination walk, a 25-way race): its limit is this many request timeouts. */
export const CHECK_TIMEOUT_FACTOR = 12;
// One default each, in defaults.ts: the CLI's option table, the engine and the client read the same one.
export { DEFAULT_MAX_CONSECUTIVE_FAILURES, DEFAULT_MAX_OPERATIONS, DEFAULT_RETRY_AFTER_CAP_MS } from '../defaults.js';

const BASE_MS = 30_000;
const PER_CHECK_MS = 500;
const CEILING_MS = 120_000;

/**
 * Each operation a run calls (ruling 34) raises the ceiling by this much: its per-operation checks make up
 * to a few dozen requests (operation-keys.ts OPERATION_BUDGET), and the real description has 53 of them, so
 * a 2 min ceiling would stop a healthy run against a real service by default.
 */
const PER_OPERATION_MS = 15_000;

/**
 * The default deadline: 30 s plus 0.5 s a selected check (each per-operation result counts), at most 2 min
 * plus 15 s per called operation (the full catalogue against a healthy target takes well under that), but
 * never less than three request timeouts, so a run with a long --timeout can still finish a few slow checks.
 */
export function defaultMaxDurationMs(selectedChecks: number, timeoutMs: number, calledOperations = 0): number {
  const bySelection = Math.min(CEILING_MS + PER_OPERATION_MS * calledOperations, BASE_MS + PER_CHECK_MS * selectedChecks);
  return Math.max(bySelection, 3 * timeoutMs);
}

