/**
 * The run scope's own rules, in-process (the signals and the supervisor are driven end to end by
 * tests/hostile/start-up.test.ts): the start-up bound and its end, the deadline naming the phase, finalizers
 * last-first and once, and a stopped scope never leaving the work it refused as an unhandled rejection.
 * The race is the stop room's one helper (stop/race.ts), raced here against the scope's signal.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRunScope, type RunScope } from '../../src/stop/scope.js';
import { untilStopped } from '../../src/stop/race.js';
import { Stopped } from '../../src/stop/reason.js';

const opened: RunScope[] = [];
function scope(options: Parameters<typeof openRunScope>[0]): RunScope {
  const made = openRunScope(options);
  opened.push(made);
  return made;
}
afterEach(async () => {
  for (const made of opened.splice(0)) await made.close();
  vi.unstubAllEnvs();
});

const never = (): Promise<never> => new Promise<never>(() => {});
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the run scope', () => {
  it('without --max-duration, the start-up bound stops a hung start-up, naming the phase', async () => {
    vi.stubEnv('AC_TEST_START_UP_MS', '150');
    const run = scope({ what: 'the run', startUp: {} });
    await run.enter('embedded reference');
    const stopped = await untilStopped(never(), run.signal).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(Stopped);
    expect((stopped as Stopped).reason).toMatchObject({ code: 'DEADLINE', phase: 'embedded reference' });
    expect((stopped as Stopped).reason.message).toContain('did not finish starting within 150 ms (phase "embedded reference")');
    // The signal itself carries the record: the engine and the load driver read it from there.
    expect(run.signal.reason).toMatchObject({ code: 'DEADLINE', phase: 'embedded reference' });
  });

  it('startedUp() ends the start-up bound: the work after it is not stopped by it', async () => {
    vi.stubEnv('AC_TEST_START_UP_MS', '100');
    const run = scope({ what: 'the run', startUp: {} });
    run.startedUp();
    await run.enter('checks');
    expect(await untilStopped(sleep(250).then(() => 'done'), run.signal)).toBe('done');
    expect(run.stopped()).toBeUndefined();
  });

  it('the deadline stops the work in whatever phase it finds', async () => {
    const run = scope({ what: 'the load run', maxDurationMs: 120 });
    await run.enter('load');
    await expect(untilStopped(never(), run.signal)).rejects.toMatchObject({ reason: { code: 'DEADLINE', phase: 'load' } });
    expect(run.signal.aborted).toBe(true);
  });

  it('race on a scope already stopped: refused at once, and the work failing later is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const run = scope({ what: 'the run', maxDurationMs: 1 });
      await sleep(30);
      expect(run.stopped()?.code).toBe('DEADLINE');
      // What runInScope does: a target start that fails because the scope stopped (its phase is refused).
      const work = (async () => {
        await sleep(10);
        throw new Error('the target start failed after the stop');
      })();
      await expect(untilStopped(work, run.signal)).rejects.toBeInstanceOf(Stopped);
      await sleep(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('race hands a value that arrives after the stop to onLate (to close it), and one that arrived in time to nobody', async () => {
    const run = scope({ what: 'the run', maxDurationMs: 60 });
    const late: string[] = [];
    expect(await untilStopped(Promise.resolve('in time'), run.signal, (value) => late.push(value))).toBe('in time');
    const slow = sleep(150).then(() => 'after the stop');
    await expect(untilStopped(slow, run.signal, (value) => late.push(value))).rejects.toBeInstanceOf(Stopped);
    await slow;
    await sleep(0);
    expect(late).toEqual(['after the stop']);
  });

  it('finalizers run last registered first, once, however often close() is called', async () => {
    const run = scope({ what: 'the run' });
    const ran: string[] = [];
    run.onCleanup('close the state', async () => void ran.push('state'));
    run.onCleanup('stop the target', async () => void ran.push('target'));
    await Promise.all([run.close(), run.close()]);
    await run.close();
    expect(ran).toEqual(['target', 'state']);
  });

  it('reported() is remembered, so a late harness error does not write over the reports', () => {
    const run = scope({ what: 'the run' });
    expect(run.hasReported).toBe(false);
    run.reported();
    expect(run.hasReported).toBe(true);
  });

  it('a deadline already past when the scope opens (counted from the supervisor\'s start) stops it at once', async () => {
    vi.stubEnv('AC_SUPERVISED_CHILD', String(Date.now() - 5_000));
    const run = scope({ what: 'the send', maxDurationMs: 1_000 });
    await sleep(20);
    expect(run.stopped()).toMatchObject({ code: 'DEADLINE', phase: 'start' });
  });

  it('a bound that fires after close() stops nothing', async () => {
    const run = scope({ what: 'the run', maxDurationMs: 50 });
    await run.close();
    await sleep(120);
    expect(run.signal.aborted).toBe(false);
  });
});
