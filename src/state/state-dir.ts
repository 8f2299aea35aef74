/**
 * `serve --state-dir DIR`: one LevelDB database under DIR keeps what a restarted serve needs to stay the same
 * service: the tenant (credentials, listeners, keys, the local CA), the idempotency records, the runs and
 * the clock. {@link openStateDir} hands the sandbox a {@link SandboxState}: the kept tenant, if any, and the
 * reference's ports on the database (event store, runner, clock). Without --state-dir none of this loads:
 * the in-memory ports stay the reference's defaults.
 */
import type { SandboxState, SandboxStateRecord } from '../tenant/types.js';
import { createDurableClock, type KeptClock } from './durable-clock.js';
import { RECORD_COUNT_KEY, createDurableEventStore, type DurableEventStore } from './durable-event-store.js';
import { createDurableRunner } from './durable-runner.js';
import { createGroupCommit } from './group-commit.js';
import { float64, metaKey, readFloat64 } from './keys.js';
import { openStateDb, writeBatch, type StateDb } from './level.js';

const TENANT_KEY = metaKey('tenant');
const OFFSET_KEY = metaKey('clock-offset');
const FLOOR_KEY = metaKey('clock-floor');
const COUNT_KEY = metaKey(RECORD_COUNT_KEY);

export interface OpenStateOptions {
  /** Where operational lines go (a failed sweep, a clock offset that could not be written). */
  logger?: (line: string) => void;
  /** Records' lifetime; default the spec's 7 days. */
  retentionSeconds?: number;
  /** The wall clock under the kept offset (tests); default Date.now. */
  wallSeconds?: () => number;
}

export interface StateDirHandle extends SandboxState {
  /** The database itself (tests and benchmarks build stores over it). */
  database: StateDb;
  /** The event store, with its sweep that can be awaited (tests, benchmarks). */
  eventStore: DurableEventStore;
  /** Resolves once every write queued so far is on disk. */
  idle(): Promise<void>;
}

export async function openStateDir(dir: string, options: OpenStateOptions = {}): Promise<StateDirHandle> {
  const db = await openStateDb(dir);
  try {
    return await assemble(db, dir, options);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

async function assemble(db: StateDb, dir: string, options: OpenStateOptions): Promise<StateDirHandle> {
  const number = (key: Buffer): number => {
    const value = db.getSync(key);
    return value === undefined ? 0 : readFloat64(value);
  };
  const keptTenant = db.getSync(TENANT_KEY);
  const kept = keptTenant === undefined ? undefined : (JSON.parse(keptTenant.toString('utf8')) as SandboxStateRecord);
  const keptClock: KeptClock = { offset: number(OFFSET_KEY), floor: number(FLOOR_KEY) };

  // Assigned below; the batch extras read it only when a batch is written, after it exists.
  let eventStore: DurableEventStore | undefined;
  const writer = createGroupCommit(db, { extras: () => [{ type: 'put', key: FLOOR_KEY, value: float64(clock.now()) }, ...(eventStore ? [eventStore.counter()] : [])] });
  const clock = createDurableClock(
    keptClock,
    (offset) => {
      writer.write([{ type: 'put', key: OFFSET_KEY, value: float64(offset) }]).catch((error: unknown) =>
        options.logger?.(`state: cannot keep the clock's offset: ${(error as Error)?.message ?? String(error)}`),
      );
    },
    options.wallSeconds,
  );
  const store = createDurableEventStore({
    db,
    writer,
    initialCount: number(COUNT_KEY),
    ...(options.retentionSeconds === undefined ? {} : { retentionSeconds: options.retentionSeconds }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  eventStore = store;
  const runner = await createDurableRunner({ db, writer, ...(options.logger === undefined ? {} : { logger: options.logger }) });
  let closed: Promise<void> | undefined;

  return {
    dir,
    database: db,
    kept,
    async keep(record) {
      await writeBatch(db, [{ type: 'put', key: TENANT_KEY, value: Buffer.from(JSON.stringify(record), 'utf8') }], true);
    },
    deps: { clock, eventStore: store, runner },
    eventStore: store,
    idle: () => writer.idle(),
    close() {
      closed ??= (async () => {
        await writer.idle();
        await db.close();
      })();
      return closed;
    },
  };
}
