/**
 * The state directory's store behind the reference's ports: a claim is remembered across a reopen, two
 * claims of one ID race to one winner, records expire and are swept by the clock (kept offset included),
 * runs come back, and a bad or busy directory is a HarnessError with its own code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { createDurableEventStore, openStateDir, type StateDirHandle } from '../../src/state/index.js';
import { lockHeld } from '../../src/state/proof.js';

const DAY = 86_400;
const dirs: string[] = [];
const open: StateDirHandle[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ac-state-'));
  dirs.push(dir);
  return dir;
}

async function openAt(dir: string, wall: () => number = () => Date.now() / 1000): Promise<StateDirHandle> {
  const state = await openStateDir(dir, { wallSeconds: wall });
  open.push(state);
  return state;
}

afterEach(async () => {
  for (const state of open.splice(0)) await state.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe('state directory', () => {
  test('a claimed event is a duplicate after the store is closed and opened again; another listener is another record', async () => {
    const dir = tempDir();
    const first = await openAt(dir);
    const { eventStore, clock } = first.deps;
    expect(await eventStore.claim('wh_A', ID, clock.now())).toBe(true);
    expect(await eventStore.claim('wh_A', ID, clock.now())).toBe(false);
    await first.close();
    const second = await openAt(dir);
    expect(await second.deps.eventStore.claim('wh_A', ID, second.deps.clock.now())).toBe(false);
    expect(await second.deps.eventStore.claim('wh_B', ID, second.deps.clock.now())).toBe(true);
    // An ID that is not a canonical UUID is kept as text, apart from the UUID form.
    expect(await second.deps.eventStore.claim('wh_A', 'not-a-uuid', second.deps.clock.now())).toBe(true);
    expect(await second.deps.eventStore.claim('wh_A', 'not-a-uuid', second.deps.clock.now())).toBe(false);
    expect(second.deps.eventStore.size()).toBe(3);
  });

  test('a claim answers only once its write is durable; a failed write answers neither true nor a duplicate', async () => {
    const state = await openAt(tempDir());
    let finish: (() => void) | undefined;
    let fail: ((error: Error) => void) | undefined;
    const writes: number[] = [];
    // A store over the same database whose writer is held by the test: the claim must wait for it.
    const held = createDurableEventStore({
      db: state.database,
      writer: {
        write: (operations) => new Promise<void>((resolve, reject) => {
          writes.push(operations.length);
          finish = resolve;
          fail = reject;
        }),
        idle: async () => undefined,
        stopped: () => undefined,
      },
      initialCount: 0,
    });
    let answered: boolean | undefined;
    const claim = Promise.resolve(held.claim('wh_A', ID, 1)).then((value) => (answered = value));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes).toEqual([2]);
    expect(answered).toBeUndefined();
    finish?.();
    expect(await claim).toBe(true);

    const other = '0f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const failing = Promise.resolve(held.claim('wh_A', other, 1));
    const racing = Promise.resolve(held.claim('wh_A', other, 1));
    fail?.(new Error('disk full'));
    await expect(failing).rejects.toThrow('disk full');
    await expect(racing).rejects.toThrow('disk full');
    expect(held.size()).toBe(1);
  });

  test('claims of one ID in flight together: exactly one wins', async () => {
    const state = await openAt(tempDir());
    const now = state.deps.clock.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => state.deps.eventStore.claim('wh_A', ID, now)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  test('7 days by the clock: the hook\'s offset is kept, expired records are accepted again and swept', async () => {
    const dir = tempDir();
    let wall = 1_800_000_000;
    const first = await openAt(dir, () => wall);
    expect(await first.deps.eventStore.claim('wh_A', ID, first.deps.clock.now())).toBe(true);
    first.deps.clock.advance(6 * DAY);
    await first.idle();
    await first.close();

    // Reopened a day of wall time later: 6 days kept + 1 day = 7 days, the record is gone by the clock.
    wall += DAY - 1;
    const second = await openAt(dir, () => wall);
    expect(second.deps.clock.now()).toBeCloseTo(1_800_000_000 + 7 * DAY - 1, 3);
    expect(await second.deps.eventStore.claim('wh_A', ID, second.deps.clock.now())).toBe(false);
    wall += 2;
    expect(await second.eventStore.sweepNow(second.deps.clock.now())).toBe(1);
    expect(second.deps.eventStore.size()).toBe(0);
    expect(await second.deps.eventStore.claim('wh_A', ID, second.deps.clock.now())).toBe(true);
    expect(second.deps.eventStore.size()).toBe(1);
    // The record claimed again lives on; the sweep keeps it.
    expect(await second.eventStore.sweepNow(second.deps.clock.now())).toBe(0);
    expect(await second.deps.eventStore.claim('wh_A', ID, second.deps.clock.now())).toBe(false);
  });

  test('the clock never goes below the last committed time, even if the wall clock stepped back', async () => {
    const dir = tempDir();
    let wall = 1_800_000_000;
    const first = await openAt(dir, () => wall);
    expect(await first.deps.eventStore.claim('wh_A', ID, first.deps.clock.now())).toBe(true);
    await first.close();
    wall -= 3600;
    const second = await openAt(dir, () => wall);
    expect(second.deps.clock.now()).toBeGreaterThanOrEqual(1_800_000_000);
  });

  test('runs are kept: the runs hook answers the same after a reopen', async () => {
    const dir = tempDir();
    const first = await openAt(dir);
    await first.deps.runner.run({ listenerId: 'wh_A', eventId: ID, context: { n: 1 }, contextJson: '{"n":9007199254740993}', at: 1 });
    await first.deps.runner.run({ listenerId: 'wh_A', eventId: 'x', context: { n: 2 }, at: 2 });
    await first.close();
    const second = await openAt(dir);
    const runs = second.deps.runner.list('wh_A');
    expect(runs.map((run) => [run.eventId, run.contextJson, run.at])).toEqual([[ID, '{"n":9007199254740993}', 1], ['x', undefined, 2]]);
    expect(runs[1]?.context).toEqual({ n: 2 });
  });

  test('the tenant record is kept as written', async () => {
    const dir = tempDir();
    const first = await openAt(dir);
    expect(first.kept).toBeUndefined();
    const record = { tenant: { seed: 's' } as never, port: 4242, settings: { '--hooks': true } };
    await first.keep(record);
    await first.close();
    const second = await openAt(dir);
    expect(second.kept).toEqual(record);
  });

  test('a directory held by another opener is STATE_DIR_LOCKED; one that cannot be created is STATE_DIR', async () => {
    const dir = tempDir();
    await openAt(dir);
    const locked = await openStateDir(dir).catch((error: unknown) => error);
    expect(locked).toBeInstanceOf(HarnessError);
    expect((locked as HarnessError).code).toBe('STATE_DIR_LOCKED');

    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    const bad = await openStateDir(join(file, 'state')).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(HarnessError);
    expect((bad as HarnessError).code).toBe('STATE_DIR');
    expect((bad as HarnessError).message).toContain('ENOTDIR');
  });

  test('every state-dir error names its cause: not a directory, missing, in use (by the kernel\'s lock table, before any file is read), corrupt', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'x');
    await expect(openStateDir(file)).rejects.toMatchObject({ code: 'STATE_DIR', message: expect.stringContaining('it is not a directory') });
    // /proc refuses a folder with ENOENT: the path "does not exist and cannot be created".
    await expect(openStateDir('/proc/1/no-such/state')).rejects.toMatchObject({ code: 'STATE_DIR', message: expect.stringContaining('cannot be created') });

    const dir = tempDir();
    await openAt(dir);
    expect(lockHeld(dir)).toBe(true);
    writeFileSync(join(dir, 'CURRENT'), 'garbage\n');
    // Held: LOCKED, not the garbage CURRENT (a live serve's files are not read).
    await expect(openStateDir(dir)).rejects.toMatchObject({ code: 'STATE_DIR_LOCKED' });
    for (const state of open.splice(0)) await state.close();
    expect(lockHeld(dir)).toBe(false);
    await expect(openStateDir(dir)).rejects.toMatchObject({ code: 'STATE_DIR_CORRUPT', message: expect.stringContaining('CURRENT: does not name a MANIFEST') });
  });
});
