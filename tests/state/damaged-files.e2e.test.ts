/**
 * A state directory damaged on disk after events were answered (a log cut in half, a bit flipped in a log
 * or a table, a table emptied, a garbage MANIFEST or CURRENT, a log removed, the seal removed): each damage
 * is refused with STATE_DIR_CORRUPT naming the damaged file (asserted for every one: none may start). Then `--state-repair` keeps what can be proved and says how
 * many records it dropped, and exactly that many of the answered events are accepted again.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { openStateDir } from '../../src/state/index.js';

const LISTENER = 'wh_A';
const root = mkdtempSync(join(tmpdir(), 'ac-state-damage-'));
const base = join(root, 'base');
let answered: string[] = [];

beforeAll(async () => {
  // Enough records for LevelDB to have written tables (a 4 MB write buffer) and to hold more in its log.
  const state = await openStateDir(base);
  const ids = Array.from({ length: 70_000 }, () => randomUUID());
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++]!;
      if (await state.deps.eventStore.claim(LISTENER, id, state.deps.clock.now())) answered.push(id);
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
  await state.close();
  expect(answered.length).toBe(ids.length);
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const files = (dir: string, suffix: string): string[] => readdirSync(dir).filter((name) => name.endsWith(suffix)).sort();
const flip = (path: string, at: (size: number) => number): void => {
  const bytes = readFileSync(path);
  bytes[at(bytes.length)]! ^= 0x40;
  writeFileSync(path, bytes);
};

/** Each damage, done to a copy of the filled DIR; `file` is what the refusal must name. */
const DAMAGE: Array<{ name: string; damage: (dir: string) => string }> = [
  { name: 'the log cut in half', damage: (dir) => cut(dir, files(dir, '.log').at(-1)!, (size) => Math.floor(size / 2)) },
  { name: 'the log cut at its last record boundary but one', damage: (dir) => cut(dir, files(dir, '.log').at(-1)!, (size) => size - 1) },
  { name: 'a bit flipped in the middle of the log', damage: (dir) => flipIn(dir, files(dir, '.log').at(-1)!, (size) => Math.floor(size / 3)) },
  { name: 'a bit flipped in the log\'s last record', damage: (dir) => flipIn(dir, files(dir, '.log').at(-1)!, (size) => size - 20) },
  { name: 'the log removed', damage: (dir) => removed(dir, files(dir, '.log').at(-1)!) },
  { name: 'a bit flipped in a table', damage: (dir) => flipIn(dir, files(dir, '.ldb')[0]!, (size) => Math.floor(size / 2)) },
  { name: 'a bit flipped in a table\'s footer', damage: (dir) => flipIn(dir, files(dir, '.ldb')[0]!, (size) => size - 3) },
  { name: 'a table truncated to 0', damage: (dir) => cut(dir, files(dir, '.ldb')[0]!, () => 0) },
  { name: 'a table cut in half', damage: (dir) => cut(dir, files(dir, '.ldb').at(-1)!, (size) => Math.floor(size / 2)) },
  { name: 'a garbage MANIFEST', damage: (dir) => garbage(dir, files(dir, '').find((name) => name.startsWith('MANIFEST-'))!) },
  { name: 'a garbage CURRENT', damage: (dir) => garbage(dir, 'CURRENT') },
  { name: 'the seal removed', damage: (dir) => removed(dir, 'HIGH-WATER') },
];

function cut(dir: string, file: string, to: (size: number) => number): string {
  truncateSync(join(dir, file), to(statSync(join(dir, file)).size));
  return file;
}
function flipIn(dir: string, file: string, at: (size: number) => number): string {
  flip(join(dir, file), at);
  return file;
}
function removed(dir: string, file: string): string {
  unlinkSync(join(dir, file));
  return file;
}
function garbage(dir: string, file: string): string {
  writeFileSync(join(dir, file), 'not what LevelDB wrote\n'.repeat(20));
  return file;
}

/** How many answered IDs a store on `dir` accepts again (claims them: each would have been a 200). */
async function acceptedAgain(dir: string, options: { repair?: boolean; logger?: (line: string) => void } = {}): Promise<number> {
  const state = await openStateDir(dir, options);
  try {
    const now = state.deps.clock.now();
    let again = 0;
    let next = 0;
    // 256 in flight, as a load would send them: the claims accepted again share their synced batches.
    const worker = async (): Promise<void> => {
      while (next < answered.length) if (await state.deps.eventStore.claim(LISTENER, answered[next++]!, now)) again += 1;
    };
    await Promise.all(Array.from({ length: 256 }, worker));
    return again;
  } finally {
    await state.close();
  }
}

describe('a damaged state directory', () => {
  test('the undamaged copy proves whole: every answered event is a duplicate', async () => {
    const dir = join(root, 'whole');
    cpSync(base, dir, { recursive: true });
    expect(files(dir, '.ldb').length).toBeGreaterThan(0);
    // The close proved the tables and listed them: the table damage below is caught through that list's CRCs.
    expect(readFileSync(join(dir, 'VERIFIED-TABLES'), 'latin1').trim().split('\n')).toHaveLength(files(dir, '.ldb').length);
    expect(statSync(join(dir, files(dir, '.log').at(-1)!)).size).toBeGreaterThan(100_000);
    expect(await acceptedAgain(dir)).toBe(0);
  }, 120_000);

  test.each(DAMAGE)('$name: refused naming the file; --state-repair drops what it says; the repaired DIR proves whole', async ({ name, damage }) => {
    const dir = join(root, name.replace(/\W+/g, '-'));
    cpSync(base, dir, { recursive: true });
    const file = damage(dir);
    // Every damage is refused (docs/state.md): a store that started on it is a failure, whatever it answers.
    const opened = await acceptedAgain(dir).then(
      (again) => `started, and accepted ${again} answered events again`,
      (error: unknown) => {
        if (error instanceof HarnessError) return error;
        throw error;
      },
    );
    expect(opened, 'a damaged DIR must be refused').toBeInstanceOf(HarnessError);
    const refusal = opened as HarnessError;
    expect(refusal.code).toBe('STATE_DIR_CORRUPT');
    expect(refusal.message).toContain(`${file}: `);
    expect(refusal.hint).toContain('--state-repair');
    // Refused again on a second try (the refusal does not consume the evidence).
    await expect(openStateDir(dir)).rejects.toMatchObject({ code: 'STATE_DIR_CORRUPT' });

    const lines: string[] = [];
    const again = await acceptedAgain(dir, { repair: true, logger: (line) => lines.push(line) });
    const said = lines.join('\n');
    const dropped = Number(/dropped (\d+)/.exec(said)?.[1]);
    expect(said, said).toMatch(/kept \d+ idempotency records, dropped \d+/);
    expect(again, `${said}`).toBe(dropped);
    // Repaired and sealed again: the next start proves it whole, with the re-accepted events kept too.
    expect(await acceptedAgain(dir)).toBe(0);
  }, 180_000);
});
