/**
 * A stop source (src/stop/source.ts): the signal a run or a halt is stopped by, following the run scope's
 * and adding its own stops and a deadline that can be set again.
 */
import { describe, expect, it } from 'vitest';
import { stopReasonOf, type StopReason } from '../../src/stop/reason.js';
import { openStop } from '../../src/stop/source.js';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const deadline: StopReason = { code: 'DEADLINE', message: 'the run reached its deadline' };

describe('openStop', () => {
  it('follows the signal it is given, with that signal\'s record', () => {
    const outer = openStop();
    const inner = openStop(outer.signal);
    outer.stop({ code: 'INTERRUPTED', message: 'the run was interrupted by SIGINT', signal: 'SIGINT' });
    expect(inner.signal.aborted).toBe(true);
    expect(inner.reason()).toMatchObject({ code: 'INTERRUPTED', signal: 'SIGINT' });
  });

  it('its own stop does not reach the signal it follows; the first stop wins', () => {
    const outer = openStop();
    const inner = openStop(outer.signal);
    inner.stop({ code: 'TIMEOUT', message: 'gave up' });
    inner.stop({ code: 'INTERNAL', message: 'later' });
    expect(outer.signal.aborted).toBe(false);
    expect(stopReasonOf(inner.signal)).toMatchObject({ code: 'TIMEOUT', message: 'gave up' });
  });

  it('the deadline fires with its record, and set again it counts from then', async () => {
    const run = openStop();
    run.deadline(20, () => deadline);
    run.deadline(80, () => deadline);
    await wait(50);
    expect(run.signal.aborted).toBe(false);
    await wait(60);
    expect(run.reason()).toEqual(deadline);
  });

  it('closed, or stopped first, its deadline stops nothing', async () => {
    const closed = openStop();
    closed.deadline(10, () => deadline);
    closed.close();
    const stopped = openStop();
    stopped.deadline(10, () => deadline);
    stopped.stop({ code: 'INTERNAL', message: 'a bug' });
    await wait(40);
    expect(closed.signal.aborted).toBe(false);
    expect(stopped.reason()?.code).toBe('INTERNAL');
  });

  it('a halt without a record reads as a stop, for the moment only', () => {
    const halt = openStop();
    halt.stop();
    expect(halt.signal.aborted).toBe(true);
    expect(halt.reason()?.code).toBe('INTERRUPTED');
  });
});
