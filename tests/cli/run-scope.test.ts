/**
 * The run scope's own rules, in-process (the signals and the supervisor are driven end to end by
 * tests/hostile/start-up.test.ts): the start-up bound and its end, the deadline naming the phase, finalizers
 * last-first and once, and a stopped scope never leaving the work it refused as an unhandled rejection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openRunScope, ScopeStopped, type RunScope } from '../../src/cli/run-scope.js';

const opened: RunScope[] = [];
function scope(options: Parameters<typeof openRunScope>[0]): RunScope {
  const made = openRunScope(options);
  opened.push(made);
  return made;
}
afterEach(async () => {
  for (const made of opened.splice(0)) await made.close();
});

const never = (): Promise<never> => new Promise<never>(() => {});
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the run scope', () => {
  it('without --max-duration, the start-up bound stops a hung start-up, naming the phase', async () => {
    const run = scope({ what: 'the run', startUpMs: 150 });
    await run.enter('embedded reference');
    const stopped = await run.race(never()).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ScopeStopped);
    expect((stopped as ScopeStopped).stop).toMatchObject({ code: 'DEADLINE', phase: 'embedded reference' });
    expect((stopped as ScopeStopped).stop.message).toContain('did not finish starting within 150 ms (phase "embedded reference")');
  });

  it('startedUp() ends the start-up bound: the work after it is not stopped by it', async () => {
    const run = scope({ what: 'the run', startUpMs: 100 });
    run.startedUp();
    await run.enter('checks');
    expect(await run.race(sleep(250).then(() => 'done'))).toBe('done');
    expect(run.stopped()).toBeUndefined();
  });

  it('the deadline stops the work in whatever phase it finds', async () => {
    const run = scope({ what: 'the load run', maxDurationMs: 120 });
    await run.enter('load');
    await expect(run.race(never())).rejects.toMatchObject({ stop: { code: 'DEADLINE', phase: 'load' } });
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
      await expect(run.race(work)).rejects.toBeInstanceOf(ScopeStopped);
      await sleep(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('race hands a value that arrives after the stop to onLate (to close it), and one that arrived in time to nobody', async () => {
    const run = scope({ what: 'the run', maxDurationMs: 60 });
    const late: string[] = [];
    expect(await run.race(Promise.resolve('in time'), (value) => late.push(value))).toBe('in time');
    const slow = sleep(150).then(() => 'after the stop');
    await expect(run.race(slow, (value) => late.push(value))).rejects.toBeInstanceOf(ScopeStopped);
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
});
