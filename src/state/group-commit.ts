/**
 * Group commit: the writes that arrive in one event-loop turn go together as one synced batch, one
 * fdatasync for all of them; each caller's promise settles when its batch is durable. Up to `maxInFlight`
 * batches are written at once: LevelDB groups concurrent synced writers into one log write and sync of its
 * own, so a batch started while another syncs shares the next sync instead of waiting a whole one for its
 * turn; past the limit, writes wait and go together in the next batch (the thread pool stays free).
 *
 * Every batch carries its number (`m batch`), and batches are acknowledged in that order, each only after
 * the seal (seal.ts) names it: so the seal never names a batch the log does not hold before it.
 *
 * Fail-stop. LevelDB keeps accepting writes after a failed append to its log (only a failed sync stops
 * it), writing them after a torn record that its recovery then drops with everything behind it. So the
 * first failed write or sync stops this writer for good: that batch, every batch still in flight (even
 * one LevelDB reports written: it may lie behind the torn record) and every later write are refused with
 * {@link StoreStopped}, which the reference answers with a 503 saying why. Only a restart, whose proof
 * (proof.ts) checks the log first, accepts writes again.
 */
import { PortUnavailable } from '../reference/unavailable.js';
import { float64, metaKey } from './keys.js';
import { levelErrorText, writeBatch, type StateDb, type StateOperation } from './level.js';
import { SEAL_FILE, type SealWriter } from './seal.js';

export interface GroupCommit {
  /** Resolves once `operations` are written and synced; rejects when their batch failed or the writer stopped. */
  write(operations: StateOperation[]): Promise<void>;
  /** Resolves when every write queued so far has settled. */
  idle(): Promise<void>;
  /** Why the writer stopped, once a write failed; undefined while it accepts writes. */
  stopped(): StoreStopped | undefined;
}

/** Every write refused after the store stopped; its message is the 503's error_description. */
export class StoreStopped extends PortUnavailable {}

/** A line for a write that failed; none for one refused because the store stopped (that was said once). */
export function logFailure(logger: ((line: string) => void) | undefined, what: string, error: unknown): void {
  if (!(error instanceof StoreStopped)) logger?.(`state: ${what}: ${(error as Error)?.message ?? String(error)}`);
}

/** The key of the batch number in every batch. */
export const BATCH_KEY = metaKey('batch');

interface Waiting {
  operations: StateOperation[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Flight {
  batch: number;
  records: number;
  waiting: Waiting[];
  done: boolean;
}

export interface GroupCommitOptions {
  /** Adds operations to every batch (the clock's floor, the record count), after the callers' own. */
  extras?: () => StateOperation[];
  /** The idempotency records held once this batch is written (the seal keeps it). */
  records?: () => number;
  /** Where acknowledged batches are sealed; none in tests of the batching alone. */
  seal?: SealWriter;
  /** The batch number the database holds at open (the next batch is one more). */
  lastBatch?: number;
  /** Batches written at once; default 2. */
  maxInFlight?: number;
  /** Where the one line saying the store stopped goes. */
  logger?: (line: string) => void;
}

export function createGroupCommit(db: StateDb, options: GroupCommitOptions = {}): GroupCommit {
  const extras = options.extras ?? (() => []);
  const records = options.records ?? (() => 0);
  const maxInFlight = options.maxInFlight ?? 2;
  let queue: Waiting[] = [];
  let lastBatch = options.lastBatch ?? 0;
  /** Batches written or being written and not yet answered, in batch order. */
  const flights: Flight[] = [];
  let inFlight = 0;
  let scheduled = false;
  let sealing = false;
  let failure: StoreStopped | undefined;
  const settled: Array<() => void> = [];

  const stop = (error: unknown, what: string): void => {
    if (failure !== undefined) return;
    const cause = levelErrorText(error);
    failure = new StoreStopped(
      `the sandbox's state store stopped accepting writes at ${new Date().toISOString()}: ${what} failed (${cause}); no event is accepted until serve is restarted, and the restart checks the log before it serves`,
    );
    options.logger?.(`state: STOPPED: ${what} failed (${cause}); every webhook now gets 503 until serve is restarted (the restart proves the log whole, or refuses with STATE_DIR_CORRUPT)`);
    for (const waiting of queue.splice(0)) waiting.reject(failure);
  };

  const wakeIdle = (): void => {
    if (queue.length === 0 && inFlight === 0 && flights.length === 0 && !sealing) for (const wake of settled.splice(0)) wake();
  };

  /** Answers the batches at the head of the order that are written: sealed first, or refused after a failure. */
  const answer = (): void => {
    if (sealing) return;
    const ready: Flight[] = [];
    while (flights[0]?.done) ready.push(flights.shift()!);
    if (ready.length === 0) return wakeIdle();
    const refuse = (): void => {
      for (const flight of ready) for (const waiting of flight.waiting) waiting.reject(failure);
    };
    if (failure !== undefined) {
      refuse();
      return answer();
    }
    const last = ready[ready.length - 1]!;
    if (options.seal === undefined) {
      for (const flight of ready) for (const waiting of flight.waiting) waiting.resolve();
      return answer();
    }
    sealing = true;
    options.seal.write({ batch: last.batch, records: last.records }).then(
      () => {
        for (const flight of ready) for (const waiting of flight.waiting) waiting.resolve();
      },
      (error: unknown) => {
        stop(error, `writing the high-water mark (${SEAL_FILE})`);
        refuse();
      },
    ).finally(() => {
      sealing = false;
      answer();
    });
  };

  const flush = (): void => {
    scheduled = false;
    if (queue.length === 0 || inFlight >= maxInFlight || failure !== undefined) return;
    const waiting = queue;
    queue = [];
    inFlight += 1;
    lastBatch += 1;
    const operations = waiting.flatMap((w) => w.operations);
    operations.push(...extras(), { type: 'put', key: BATCH_KEY, value: float64(lastBatch) });
    const flight: Flight = { batch: lastBatch, records: records(), waiting, done: false };
    flights.push(flight);
    writeBatch(db, operations, true)
      .catch((error: unknown) => stop(error, `a synced write to the state database (batch ${flight.batch})`))
      .finally(() => {
        flight.done = true;
        inFlight -= 1;
        answer();
        if (queue.length > 0) flush();
      });
  };

  return {
    write(operations) {
      if (failure !== undefined) return Promise.reject(failure);
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
      if (queue.length === 0 && inFlight === 0 && flights.length === 0 && !sealing) return Promise.resolve();
      return new Promise<void>((resolve) => settled.push(resolve));
    },
    stopped: () => failure,
  };
}
