/** `within` (src/stop/within.ts): the work's value, or the late answer at the bound, and nothing left behind. */
import { describe, expect, it } from 'vitest';
import { within } from '../../src/stop/within.js';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('within', () => {
  it('gives the work\'s value when it ends first', async () => {
    await expect(within(wait(5).then(() => 'done'), 1_000, () => 'late')).resolves.toBe('done');
  });

  it('gives what onLate gives, or throws what it throws, when the bound passes first', async () => {
    const started = performance.now();
    await expect(within(new Promise<string>(() => {}), 30, () => 'late')).resolves.toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    await expect(within(new Promise<string>(() => {}), 10, () => {
      throw new Error('too slow');
    })).rejects.toThrow('too slow');
  });

  it('passes the work\'s own failure on when it fails first', async () => {
    await expect(within(Promise.reject(new Error('broken')), 1_000, () => 'late')).rejects.toThrow('broken');
  });

  it('tells work given as a function that nobody waits any more, and a late rejection is handled', async () => {
    let seen: AbortSignal | undefined;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const value = await within(
        async (late) => {
          seen = late;
          await wait(40);
          throw new Error('failed after the bound');
        },
        10,
        () => 'late',
      );
      expect(value).toBe('late');
      expect(seen?.aborted).toBe(true);
      await wait(60);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a bound past what a timer holds (2^31 - 1 ms) is not the next millisecond', async () => {
    await expect(within(wait(30).then(() => 'done'), 2 ** 31 + 5, () => 'late')).resolves.toBe('done');
  });

  it('clears its timer once the work ended: nothing of it keeps the process', async () => {
    const before = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    await within(Promise.resolve(1), 60_000, () => 0);
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBe(before);
  });
});
