/**
 * Group commit: the writes that arrive in one event-loop turn go together as one synced batch, one
 * fdatasync for all of them; each caller's promise settles when its batch is durable. Up to `maxInFlight`
 * batches are written at once: LevelDB groups concurrent synced writers into one log write and sync of its
 * own, so a batch started while another syncs shares the next sync instead of waiting a whole one for its
 * turn; past the limit, writes wait and go together in the next batch (the thread pool stays free).
 */
import { writeBatch, type StateDb, type StateOperation } from './level.js';

export interface GroupCommit {
  /** Resolves once `operations` are written and synced; rejects when their batch failed. */
  write(operations: StateOperation[]): Promise<void>;
  /** Resolves when every write queued so far has settled. */
  idle(): Promise<void>;
}

interface Waiting {
  operations: StateOperation[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /** Adds operations to every batch (the clock's floor, the record count), after the callers' own. */
  extras?: () => StateOperation[];
  /** Batches written at once; default 2. */
  maxInFlight?: number;
}

export function createGroupCommit(db: StateDb, options: GroupCommitOptions = {}): GroupCommit {
  const extras = options.extras ?? (() => []);
  const maxInFlight = options.maxInFlight ?? 2;
  let queue: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;
  const settled: Array<() => void> = [];

  const flush = (): void => {
    scheduled = false;
    if (queue.length === 0 || inFlight >= maxInFlight) return;
    const batch = queue;
    queue = [];
    inFlight += 1;
    const operations = batch.flatMap((waiting) => waiting.operations);
    writeBatch(db, [...operations, ...extras()], true)
      .then(
        () => {
          for (const waiting of batch) waiting.resolve();
        },
        (error: unknown) => {
          for (const waiting of batch) waiting.reject(error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        if (queue.length > 0) flush();
        else if (inFlight === 0) for (const wake of settled.splice(0)) wake();
      });
  };

  return {
    write(operations) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ operations, resolve, reject });
        // Once a turn: the requests of that turn share its batch.
        if (!scheduled && inFlight < maxInFlight) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    idle() {
      if (queue.length === 0 && inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => settled.push(resolve));
    },
  };
}
