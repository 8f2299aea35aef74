/**
 * The reference's EventStore port (src/reference/types.ts) on the state database: a claim answers true only
 * once its record is durable (the group commit's fdatasync), so a 200 is never sent for an event a restart
 * would forget. Memory does not grow with the records: a lookup goes to LevelDB (its Bloom filters and
 * bounded block cache), and only the claims still being written are held in memory.
 *
 * Two claims of one event ID in flight at once: the second waits for the first's write and answers
 * "duplicate" when it succeeded (it rethrows the first's failure otherwise, so neither answers 200 for
 * a record that is not on disk).
 */
import type { EventStore } from '../reference/types.js';
import { EVENT_RETENTION_SECONDS } from '../spec-numbers.js';
import { logFailure, type GroupCommit } from './group-commit.js';
import { eventKey, expiredIndexRange, float64, indexKey, metaKey, parseIndexKey, readFloat64 } from './keys.js';
import { readRange, type StateDb, type StateOperation } from './level.js';

export interface DurableEventStoreOptions {
  db: StateDb;
  writer: GroupCommit;
  /** How many records the database holds at open (kept in the database by {@link DurableEventStore.counter}). */
  initialCount: number;
  retentionSeconds?: number;
  /** Index entries one sweep step reads; a sweep runs step after step until nothing expired is left. */
  sweepChunk?: number;
  logger?: (line: string) => void;
}

export interface DurableEventStore extends EventStore {
  /** Sweeps every record expired at `now`; resolves with how many records went. */
  sweepNow(now: number): Promise<number>;
  /** The record count as a batch operation (the group commit adds it to every batch). */
  counter(): StateOperation;
}

export const RECORD_COUNT_KEY = 'records';
const COUNT_KEY = metaKey(RECORD_COUNT_KEY);
const EMPTY = Buffer.alloc(0);

export function createDurableEventStore(options: DurableEventStoreOptions): DurableEventStore {
  const { db, writer } = options;
  const retention = options.retentionSeconds ?? EVENT_RETENTION_SECONDS;
  const chunk = options.sweepChunk ?? 2000;
  /** Claims whose write is in flight, by record key (latin1: one char a byte). Bounded by requests in flight. */
  const pending = new Map<string, Promise<void>>();
  let count = options.initialCount;
  let sweeping: Promise<number> | undefined;
  let lastSwept = 0;

  const sweepNow = (now: number): Promise<number> => {
    sweeping ??= (async () => {
      let removed = 0;
      for (;;) {
        const [gte, lt] = expiredIndexRange(now);
        const entries = await readRange(db, gte, lt, chunk);
        if (entries.length === 0) break;
        const operations: StateOperation[] = [];
        let gone = 0;
        for (const [key] of entries) {
          operations.push({ type: 'del', key });
          const { expiresAt, recordKey } = parseIndexKey(key);
          const stored = db.getSync(recordKey);
          // A record claimed again after it expired carries a later expiry (and its own index entry): kept.
          if (stored !== undefined && readFloat64(stored) === expiresAt && !pending.has(recordKey.toString('latin1'))) {
            operations.push({ type: 'del', key: recordKey });
            gone += 1;
          }
        }
        count -= gone;
        try {
          await writer.write(operations);
        } catch (error) {
          count += gone;
          throw error;
        }
        removed += gone;
        if (entries.length < chunk) break;
      }
      lastSwept = removed;
      return removed;
    })().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };

  return {
    claim(listenerId, eventId, now) {
      // Stopped after a failed write: every webhook is refused (503), a duplicate too, until a restart.
      const stopped = writer.stopped();
      if (stopped !== undefined) throw stopped;
      const key = eventKey(listenerId, eventId);
      const id = key.toString('latin1');
      const inFlight = pending.get(id);
      if (inFlight !== undefined) return inFlight.then(() => false);
      const stored = db.getSync(key);
      if (stored !== undefined && readFloat64(stored) > now) return false;
      const expiresAt = now + retention;
      // An expired record is replaced in place: the count stays, its old index entry is swept later.
      if (stored === undefined) count += 1;
      const write = writer.write([
        { type: 'put', key, value: float64(expiresAt) },
        { type: 'put', key: indexKey(expiresAt, key), value: EMPTY },
      ]);
      const settled = write.then(
        () => {
          pending.delete(id);
        },
        (error: unknown) => {
          pending.delete(id);
          if (stored === undefined) count -= 1;
          throw error;
        },
      );
      pending.set(id, settled);
      return settled.then(() => true);
    },
    sweep(now) {
      // The port's sweep is synchronous: this one starts a pass in the background and reports the last one.
      sweepNow(now).catch((error: unknown) => logFailure(options.logger, 'sweep failed', error));
      return lastSwept;
    },
    sweepNow,
    size() {
      return count;
    },
    counter() {
      return { type: 'put', key: COUNT_KEY, value: float64(count) };
    },
  };
}
