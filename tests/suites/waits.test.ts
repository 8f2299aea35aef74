/**
 * The suites wait only by polling: on a target that answers at once, no timer a suite sets is longer than
 * the poll interval, so a wait ends as soon as the target can say (a run shows, a second run shows) and the
 * only waits left are watches for something that must NOT happen. Checked two ways without timing: every
 * timer the wait helpers set is recorded, and every suite file (whatever files exist) is scanned for fixed
 * sleeps. Every group runs alongside the others (suites/support/group.ts), and the groups that wait are
 * group.concurrent, so their own watches overlap too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HookRun, TargetClient, TestHooks } from '../../src/client/types.js';
import { isConformanceFailure } from '../../src/errors.js';
import { expectExactlyOneRun, expectNoRun, POLL_MS, RUN_SETTLE_MS } from '../../suites/support/webhook-expect.js';

const SUITES = join(import.meta.dirname, '..', '..', 'suites');
const EVENT = '0b7c6c47-6b4e-4b55-9f0e-6d0f2d4a1c11';

/** A runs hook that answers at once with `runs()` (read on every call, so a test can change it). */
function clientWithRuns(runs: () => HookRun[]): { client: TargetClient; calls: () => number } {
  let calls = 0;
  const hooks: Pick<TestHooks, 'runs'> = {
    runs: async () => {
      calls += 1;
      return runs();
    },
  };
  return { client: { hooks } as unknown as TargetClient, calls: () => calls };
}

function run(): HookRun {
  return { eventId: EVENT, context: {}, at: 0 } as HookRun;
}

/** Records the delay of every timer set while `fn` runs (real timers: the helpers still wait). */
async function timersDuring(fn: () => Promise<unknown>): Promise<number[]> {
  const delays: number[] = [];
  const spy = vi.spyOn(globalThis, 'setTimeout');
  try {
    await fn().catch(() => undefined);
    for (const call of spy.mock.calls) delays.push(Number(call[1] ?? 0));
  } finally {
    spy.mockRestore();
  }
  return delays;
}

afterEach(() => vi.restoreAllMocks());

describe('waits on a target that answers at once', () => {
  test('exactly one run: no timer longer than the poll interval, and polling throughout the settle', async () => {
    const { client, calls } = clientWithRuns(() => [run()]);
    const delays = await timersDuring(() => expectExactlyOneRun(client, 'l', EVENT, 'unit'));
    expect(Math.max(...delays)).toBeLessThanOrEqual(POLL_MS);
    // One reading when the run shows, then one per poll interval until the settle ends.
    expect(calls()).toBeGreaterThanOrEqual(Math.floor(RUN_SETTLE_MS / POLL_MS));
  });

  test('a second run fails the check at the next poll, not at the end of the settle', async () => {
    let readings = 0;
    const { client } = clientWithRuns(() => (++readings >= 2 ? [run(), run()] : [run()]));
    const started = Date.now();
    const error = await expectExactlyOneRun(client, 'l', EVENT, 'unit', 60_000).catch((e: unknown) => e);
    expect(isConformanceFailure(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('no run: the watch polls, with no timer longer than the poll interval', async () => {
    const { client, calls } = clientWithRuns(() => []);
    const delays = await timersDuring(() => expectNoRun(client, 'l', EVENT, 'unit', 3 * POLL_MS));
    expect(Math.max(...delays)).toBeLessThanOrEqual(POLL_MS);
    expect(calls()).toBeGreaterThanOrEqual(3);
  });

  test('a run that shows during a no-run watch fails it at once', async () => {
    const { client } = clientWithRuns(() => [run()]);
    const started = Date.now();
    const error = await expectNoRun(client, 'l', EVENT, 'unit', 60_000).catch((e: unknown) => e);
    expect(isConformanceFailure(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('suite files', () => {
  const files = readdirSync(SUITES, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, text: readFileSync(join(SUITES, file), 'utf8') }));

  test('every timer in the suites is the poll helper, and every sleep is at most the poll interval', () => {
    const offenders: string[] = [];
    for (const { file, text } of files) {
      for (const match of text.matchAll(/setTimeout\(([^;\n]*)/g)) {
        // The two allowed timers: the poll pause's `new Promise((resolve) => setTimeout(resolve, ms))`
        // (check-slots.ts), and a check's time limit (check.ts), a bound that a check ending clears.
        const pollPause = /^resolve, ms\)/.test(match[1]!);
        const timeLimit = file.endsWith('check.ts') && /^\(\) => reject\(new CheckTimedOut\(ms\)\), ms\)/.test(match[1]!);
        if (!pollPause && !timeLimit) offenders.push(`${file}: setTimeout(${match[1]}`);
      }
      for (const match of text.matchAll(/\bsleep\(([^)]*)\)/g)) {
        const arg = match[1]!.trim();
        if (arg === 'ms: number' || /^Math\.min\(POLL_MS\b/.test(arg) || arg === 'POLL_MS') continue;
        if (/^\d+$/.test(arg) && Number(arg) <= POLL_MS) continue;
        offenders.push(`${file}: sleep(${arg})`);
      }
    }
    expect(offenders, 'fixed sleeps in the suites: poll the target instead (suites/support/webhook-expect.ts)').toEqual([]);
  });

  test('the groups that watch for runs are group.concurrent, so their waits overlap within the group too', () => {
    const waiting = files.filter(({ text }) => /expect(?:NoRun|ExactlyOneRun)\(/.test(text) && /^group/m.test(text));
    expect(waiting.length).toBeGreaterThan(0);
    for (const { file, text } of waiting) expect(text, `${file} waits for runs but its group is not concurrent`).toMatch(/^group\.concurrent\(/m);
  });

  test('every suite file declares its checks through group(), which the engine runs side by side', () => {
    const suites = files.filter(({ file }) => file.endsWith('.suite.ts'));
    expect(suites.length).toBeGreaterThan(0);
    for (const { file, text } of suites) {
      // A describe() of its own would run only when the file's turn came, one file after another.
      expect(text, `${file} declares a describe() of its own`).not.toMatch(/\bdescribe(?:\.\w+)?\(/);
      expect(text, `${file} declares no group()`).toMatch(/^group(?:\.concurrent)?\(/m);
    }
  });
});
