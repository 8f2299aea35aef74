/**
 * The reference's Runner port on the state database: the runs hook's log survives a restart. The last
 * `maxRunsPerListener` runs of each listener are kept in memory (what the hook answers, as the in-memory
 * runner does) and in the database; the run older than the window is deleted in the same batch, so the
 * database holds the window and no more.
 *
 * A run is queued for the next group commit and does not hold the webhook's 200: the idempotency record,
 * written before it, is what the 200 waits for. Waiting for the run's own sync as well put two syncs on every
 * webhook and cost a quarter of the durable throughput (bench `state`, BENCHMARKS.md). So a SIGKILL can lose
 * the runs of the last batch not yet handed to LevelDB (a few milliseconds' worth), never an event's record;
 * a SIGTERM or SIGINT loses none (close() waits for every queued write).
 */
import { rememberedRun } from '../reference/runner.js';
import type { AutomationRun, Runner } from '../reference/types.js';
import { logFailure, type GroupCommit } from './group-commit.js';
import { RUN_RANGE, parseRunKey, runKey } from './keys.js';
import { readRange, type StateDb } from './level.js';

interface StoredRun {
  eventId: string;
  at: number;
  contextJson?: string;
  context?: unknown;
}

export interface DurableRunnerOptions {
  db: StateDb;
  writer: GroupCommit;
  maxRunsPerListener?: number;
  logger?: (line: string) => void;
}

/** Loads the kept runs (the window of each listener) and returns the runner. */
export async function createDurableRunner(options: DurableRunnerOptions): Promise<Runner> {
  const { db, writer } = options;
  const maxRuns = options.maxRunsPerListener ?? 1000;
  const runs = new Map<string, { next: number; list: AutomationRun[] }>();
  const logOf = (listenerId: string): { next: number; list: AutomationRun[] } => {
    let log = runs.get(listenerId);
    if (log === undefined) {
      log = { next: 0, list: [] };
      runs.set(listenerId, log);
    }
    return log;
  };

  const [gte, lt] = RUN_RANGE;
  for (const [key, value] of await readRange(db, gte, lt, Number.MAX_SAFE_INTEGER)) {
    const { listenerId, seq } = parseRunKey(key);
    const stored = JSON.parse(value.toString('utf8')) as StoredRun;
    const log = logOf(listenerId);
    log.list.push(remembered(listenerId, stored));
    log.next = seq + 1;
  }

  return {
    run(run) {
      const log = logOf(run.listenerId);
      const seq = log.next;
      log.next += 1;
      const stored: StoredRun = { eventId: run.eventId, at: run.at, ...(run.contextJson === undefined ? { context: run.context } : { contextJson: run.contextJson }) };
      log.list.push(remembered(run.listenerId, stored));
      if (log.list.length > maxRuns + Math.max(1, maxRuns >> 4)) log.list.splice(0, log.list.length - maxRuns);
      writer.write([
        { type: 'put', key: runKey(run.listenerId, seq), value: Buffer.from(JSON.stringify(stored), 'utf8') },
        ...(seq >= maxRuns ? [{ type: 'del' as const, key: runKey(run.listenerId, seq - maxRuns) }] : []),
      ]).catch((error: unknown) => logFailure(options.logger, 'a run could not be kept', error));
    },
    list(listenerId) {
      const list = runs.get(listenerId)?.list ?? [];
      return list.slice(Math.max(0, list.length - maxRuns));
    },
  };
}

function remembered(listenerId: string, stored: StoredRun): AutomationRun {
  const { eventId, at, contextJson } = stored;
  return rememberedRun(contextJson === undefined ? { listenerId, eventId, at, context: stored.context } : { listenerId, eventId, at, context: undefined, contextJson });
}
