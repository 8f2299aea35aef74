/**
 * `serve --state-dir DIR`: one LevelDB database under DIR keeps what a restarted serve needs to stay the same
 * service: the tenant (credentials, listeners, keys, the local CA), the idempotency records, the runs and
 * the clock. {@link openStateDir} hands the sandbox a {@link SandboxState}: the kept tenant, if any, and the
 * reference's ports on the database (event store, runner, clock). Without --state-dir none of this loads:
 * the in-memory ports stay the reference's defaults.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { mkdirLevels } from '../output-file.js';
import type { SandboxState, SandboxStateRecord } from '../tenant/types.js';
import { createDurableClock, type KeptClock } from './durable-clock.js';
import { RECORD_COUNT_KEY, createDurableEventStore, type DurableEventStore } from './durable-event-store.js';
import { createDurableRunner } from './durable-runner.js';
import { BATCH_KEY, createGroupCommit, logFailure } from './group-commit.js';
import { EVENT_RANGE, float64, metaKey, readFloat64 } from './keys.js';
import { countRange, openStateDb, writeBatch, type StateDb } from './level.js';
import { checkAgainstSeal, checkStateFiles, lockHeld, recordVerifiedTables, verifyTablesAtClose, type Damage, type FileCheck } from './proof.js';
import { repairFiles } from './repair.js';
import { openSeal, writeSealSync, type SealWriter } from './seal.js';
import { corruptError, fsCause, lockedError, stateDirError } from './state-errors.js';

const TENANT_KEY = metaKey('tenant');
const OFFSET_KEY = metaKey('clock-offset');
const FLOOR_KEY = metaKey('clock-floor');
const COUNT_KEY = metaKey(RECORD_COUNT_KEY);

export interface OpenStateOptions {
  /** Where operational lines go (a failed sweep, a clock offset that could not be written, a repair). */
  logger?: (line: string) => void;
  /** Records' lifetime; default the spec's 7 days. */
  retentionSeconds?: number;
  /** The wall clock under the kept offset (tests); default Date.now. */
  wallSeconds?: () => number;
  /** `--state-repair`: keep what can be proved of a damaged DIR instead of refusing it. */
  repair?: boolean;
}

export interface StateDirHandle extends SandboxState {
  /** The database itself (tests and benchmarks build stores over it). */
  database: StateDb;
  /** The event store, with its sweep that can be awaited (tests, benchmarks). */
  eventStore: DurableEventStore;
  /** Resolves once every write queued so far is on disk. */
  idle(): Promise<void>;
  /** Why the store stopped accepting writes, once a write failed (fail-stop); undefined while it accepts. */
  stopped(): Error | undefined;
}

/**
 * Opens DIR for serve: creates it when absent, refuses it when in use, proves its files whole
 * (proof.ts) before LevelDB reads them, and after the open checks that the database holds every batch
 * the seal says was acknowledged. A DIR that cannot be proved whole is STATE_DIR_CORRUPT, unless
 * `repair`: then what can be proved is kept and the loss is said.
 */
export async function openStateDir(dir: string, options: OpenStateOptions = {}): Promise<StateDirHandle> {
  const log = options.logger ?? (() => undefined);
  prepareDir(dir);
  if (lockHeld(dir)) throw lockedError(dir);
  let check: FileCheck;
  try {
    check = checkStateFiles(dir);
  } catch (error) {
    const cause = fsCause((error as NodeJS.ErrnoException).code, (error as Error).message);
    throw cause === undefined ? error : stateDirError(dir, cause, (error as Error).message, error);
  }
  const repaired: string[] = [];
  if (check.damage.length > 0) {
    if (!options.repair) throw corrupt(dir, check.damage);
    repaired.push(...(await repairFiles(dir, check)));
  }
  try {
    if (check.fresh) writeSealSync(dir, { batch: 0, records: 0 });
  } catch (error) {
    throw asStateDirError(dir, error);
  }
  // Only saves the next open a walk: a full disk here is LevelDB's open to report, by its cause.
  if (!check.fresh && check.damage.length === 0) {
    try {
      recordVerifiedTables(dir, check.verified);
    } catch {
      // the list stays as it was; the tables are walked again next time
    }
  }
  const db = await openStateDb(dir);
  let seal: SealWriter | undefined;
  try {
    const held = numberAt(db, BATCH_KEY);
    const cut = checkAgainstSeal(check, held);
    if (cut !== undefined && !options.repair) throw corrupt(dir, [cut]);
    if (options.repair) {
      // After files were cut or moved the seal is ahead by construction: the loss is counted below.
      if (cut !== undefined && repaired.length === 0) repaired.push(`${cut.file}: ${cut.found}`);
      await reseal(db, dir, check, held, repaired, log);
    } else if (check.tornTail !== undefined) {
      const { file, offset, bytes, what } = check.tornTail;
      log(`state: ${file} ended in ${what} at byte ${offset} (${bytes} bytes), a batch never acknowledged (a crash or a full disk cut it short); LevelDB dropped it, and every acknowledged batch is there`);
    }
    seal = await openSeal(dir);
    return await assemble(db, dir, seal, held, options);
  } catch (error) {
    await seal?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}

function prepareDir(dir: string): void {
  try {
    if (!statSync(dir).isDirectory()) throw stateDirError(dir, 'not a directory', 'a file of that name exists');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw asStateDirError(dir, error);
    try {
      mkdirLevels(dir, 0o700);
    } catch (made) {
      throw asStateDirError(dir, made);
    }
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK | constants.R_OK);
  } catch (error) {
    throw asStateDirError(dir, error);
  }
}

function asStateDirError(dir: string, error: unknown): Error {
  if ((error as { code?: string }).code === 'STATE_DIR') return error as Error;
  const { code, message } = error as NodeJS.ErrnoException;
  return stateDirError(dir, fsCause(code, message) ?? 'unopenable', code ?? message, error);
}

function corrupt(dir: string, damage: Damage[]): Error {
  const [first, ...more] = damage as [Damage, ...Damage[]];
  const also = more.length === 0 ? '' : `; also ${more.map((d) => `${d.file}: ${d.found}`).join('; ')}`;
  return corruptError(dir, first.file, `${first.found}${also}`);
}

function numberAt(db: StateDb, key: Buffer): number {
  const value = db.getSync(key);
  return value === undefined ? 0 : readFloat64(value);
}

/** After --state-repair: counts the records kept, rewrites the counter and the seal, says what went. */
async function reseal(db: StateDb, dir: string, check: FileCheck, held: number, repaired: string[], log: (line: string) => void): Promise<void> {
  if (repaired.length === 0 && check.seal !== undefined) {
    log(`state: --state-repair: nothing to repair, every file of ${dir} was proved whole`);
    return;
  }
  const kept = await countRange(db, EVENT_RANGE[0], EVENT_RANGE[1]);
  const before = check.seal?.records ?? numberAt(db, COUNT_KEY);
  const batch = Math.max(held, check.seal?.batch ?? 0) + 1;
  await writeBatch(db, [{ type: 'put', key: COUNT_KEY, value: float64(kept) }, { type: 'put', key: BATCH_KEY, value: float64(batch) }], true);
  writeSealSync(dir, { batch, records: kept });
  const counted = check.seal === undefined ? "the database's own counter" : 'the seal';
  for (const line of repaired) log(`state: --state-repair: ${line}`);
  if (db.getSync(TENANT_KEY) === undefined && !check.fresh) log('state: --state-repair: the kept tenant could not be proved: serve makes a new one (profiles written before no longer work)');
  log(`state: --state-repair: kept ${kept} idempotency records, dropped ${Math.max(0, before - kept)} (${counted} counted ${before} acknowledged); ${dir} is sealed again`);
}

async function assemble(db: StateDb, dir: string, seal: SealWriter, lastBatch: number, options: OpenStateOptions): Promise<StateDirHandle> {
  const number = (key: Buffer): number => {
    const value = db.getSync(key);
    return value === undefined ? 0 : readFloat64(value);
  };
  const keptTenant = db.getSync(TENANT_KEY);
  const kept = keptTenant === undefined ? undefined : (JSON.parse(keptTenant.toString('utf8')) as SandboxStateRecord);
  const keptClock: KeptClock = { offset: number(OFFSET_KEY), floor: number(FLOOR_KEY) };

  // Assigned below; the batch extras read it only when a batch is written, after it exists.
  let eventStore: DurableEventStore | undefined;
  const writer = createGroupCommit(db, {
    extras: () => [{ type: 'put', key: FLOOR_KEY, value: float64(clock.now()) }, ...(eventStore ? [eventStore.counter()] : [])],
    records: () => eventStore?.size() ?? 0,
    seal,
    lastBatch,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const clock = createDurableClock(
    keptClock,
    (offset) => {
      writer.write([{ type: 'put', key: OFFSET_KEY, value: float64(offset) }]).catch((error: unknown) => logFailure(options.logger, "cannot keep the clock's offset", error));
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
      await writer.write([{ type: 'put', key: TENANT_KEY, value: Buffer.from(JSON.stringify(record), 'utf8') }]);
    },
    deps: { clock, eventStore: store, runner },
    eventStore: store,
    idle: () => writer.idle(),
    stopped: () => writer.stopped(),
    close() {
      closed ??= (async () => {
        await writer.idle();
        await seal.close().catch(() => undefined);
        await db.close();
        // The tables written since the open are proved now, so the next open only compares their CRCs.
        try {
          verifyTablesAtClose(dir);
        } catch (error) {
          options.logger?.(`state: the tables could not be checked at close (the next start checks them): ${(error as Error).message}`);
        }
      })();
      return closed;
    },
  };
}
