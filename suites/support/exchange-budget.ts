/**
 * How many exchanges a run's results keep, all checks together. Each result carries the exchanges its
 * check made (at most MAX_PER_CHECK, bodies cut at the recorder's bound) to the reports; vitest holds
 * every test's meta in the suite thread (its old space capped, src/engine/suite-pool.ts) and in the main
 * thread until the run ends. A run over a thousand operations has 17,000 results: kept whole, their
 * exchanges filled the thread's heap and it died. So a run's exchanges are kept up to a byte budget, one
 * for the results that passed and a larger one for those that did not (what a report's reader needs);
 * past it a result keeps its last exchange (the one that decided it), and past the hard bound none.
 *
 * The full embedded run keeps every exchange: its passed results weigh 2.8 MB of them (measured with this
 * module's own weight), a third of their budget, so its reports are the same as without one. Each byte
 * kept is held twice (the suite thread's task and the main thread's result) and rendered into report.html:
 * at 24 MB a 1,000-operation run peaked at 777 MB. Only the checks' records shrink, never what
 * the checks send or how they judge it.
 */
import type { RecordedExchange } from '../../src/client/types.js';

/** Exchanges one result keeps at most: the first ones (the set-up) and the last (what decided it). */
export const MAX_PER_CHECK = 12;
/** Bytes of exchanges the passed results of one run keep in full. */
const PASSED_BUDGET_BYTES = 8 * 1024 * 1024;
/** Bytes of exchanges the other results (failed, errored, blocked, skipped) of one run keep in full. */
const OTHER_BUDGET_BYTES = 32 * 1024 * 1024;
/** Past its budget a result keeps only its last exchange, up to this many bytes more of them in the run. */
const LAST_ONLY_BYTES = 8 * 1024 * 1024;

/** What an exchange weighs in the heap, roughly: its texts (headers counted at a flat rate). */
function weight(exchange: RecordedExchange): number {
  const headers = (h: Record<string, string> | undefined): number => (h === undefined ? 0 : 64 * Object.keys(h).length);
  return 2 * ((exchange.request.body?.length ?? 0) + (exchange.response?.body?.length ?? 0) + exchange.request.url.length) + headers(exchange.request.headers) + headers(exchange.response?.headers) + 200;
}

let spent = { runId: '', passed: 0, other: 0, lastOnly: 0 };

/** The exchanges a finished check's result keeps, counted against its run's budget. */
export function keptExchanges(runId: string, passed: boolean, exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  // One thread serves run after run (the fault runner's session): each run has its own budget.
  if (spent.runId !== runId) spent = { runId, passed: 0, other: 0, lastOnly: 0 };
  const bounded = exchanges.length > MAX_PER_CHECK ? [...exchanges.slice(0, MAX_PER_CHECK - 1), exchanges[exchanges.length - 1]!] : [...exchanges];
  const bytes = bounded.reduce((sum, exchange) => sum + weight(exchange), 0);
  const budget = passed ? PASSED_BUDGET_BYTES : OTHER_BUDGET_BYTES;
  const used = passed ? spent.passed : spent.other;
  if (used + bytes <= budget) {
    if (passed) spent.passed += bytes;
    else spent.other += bytes;
    return bounded;
  }
  const last = bounded.at(-1);
  if (last === undefined) return [];
  const lastBytes = weight(last);
  if (spent.lastOnly + lastBytes > LAST_ONLY_BYTES) return [];
  spent.lastOnly += lastBytes;
  return [last];
}
