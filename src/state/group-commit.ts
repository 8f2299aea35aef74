/**
 * Group commit: the writes that arrive while a synced batch is being written wait, and go together as the
 * next batch, one fdatasync for all of them; each caller's promise settles when its batch is durable. One
 * batch is written at a time, so under load a batch holds everything that arrived during the previous
 * sync (hundreds of records), and throughput is bounded by the records a sync can carry, not by syncs/s.
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

/** `extras` adds operations to every batch (the clock's floor, the record count), after the callers' own. */
export function createGroupCommit(db: StateDb, extras: () => StateOperation[] = () => []): GroupCommit {
  let queue: Waiting[] = [];
  let writing: Promise<void> | undefined;

  const flush = (): void => {
    const batch = queue;
    queue = [];
    const operations = batch.flatMap((waiting) => waiting.operations);
    writing = writeBatch(db, [...operations, ...extras()], true).then(
      () => {
        for (const waiting of batch) waiting.resolve();
      },
      (error: unknown) => {
        for (const waiting of batch) waiting.reject(error);
      },
    ).finally(() => {
      writing = undefined;
      if (queue.length > 0) flush();
    });
  };

  return {
    write(operations) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ operations, resolve, reject });
        // The first write after a quiet spell waits one turn, so the requests of that turn share its sync.
        if (writing === undefined && queue.length === 1) setImmediate(() => writing === undefined && queue.length > 0 && flush());
      });
    },
    async idle() {
      while (writing !== undefined || queue.length > 0) await (writing ?? new Promise<void>((resolve) => setImmediate(resolve)));
    },
  };
}
