/**
 * The run's `--concurrency` slots (suites/support/check-slots.ts): never more checks holding one than the
 * run allows; a check that mostly waits, then the next check of a one-at-a-time group, before the rest; a
 * check pausing between polls lends its slot and takes one back first in line.
 */
import { describe, expect, test } from 'vitest';
import { CheckSlots, inSlot, pause, SLOT_PRIORITY } from '../../suites/support/check-slots.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('CheckSlots', () => {
  test('hands out at most its size, and the freed slots go to the earlier places first, in order within a place', async () => {
    const slots = new CheckSlots(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const ask = (name: string, priority: (typeof SLOT_PRIORITY)[keyof typeof SLOT_PRIORITY]): void => {
      void slots.acquire(priority).then((release) => {
        order.push(name);
        releases.set(name, release);
      });
    };
    ask('other-1', SLOT_PRIORITY.other);
    ask('other-2', SLOT_PRIORITY.other);
    ask('other-3', SLOT_PRIORITY.other);
    ask('sequence-1', SLOT_PRIORITY.sequence);
    ask('waits-1', SLOT_PRIORITY.waits);
    await tick();
    expect(order).toEqual(['other-1', 'other-2']);
    expect(slots.waiting).toBe(3);
    releases.get('other-1')!();
    await tick();
    expect(order).toEqual(['other-1', 'other-2', 'waits-1']);
    releases.get('other-2')!();
    // A release called twice frees one slot only.
    releases.get('other-2')!();
    await tick();
    expect(order).toEqual(['other-1', 'other-2', 'waits-1', 'sequence-1']);
    expect(slots.waiting).toBe(1);
  });

  test('a size that is not a positive number gives one slot', async () => {
    const slots = new CheckSlots(Number.NaN);
    let second = false;
    await slots.acquire(SLOT_PRIORITY.other);
    void slots.acquire(SLOT_PRIORITY.other).then(() => (second = true));
    await tick();
    expect(second).toBe(false);
  });
});

describe('pause', () => {
  test('a check pausing lends its slot for the pause and gets one back before the checks queued meanwhile', async () => {
    const slots = new CheckSlots(1);
    const events: string[] = [];
    const waiter = inSlot(slots, SLOT_PRIORITY.waits, async () => {
      events.push('waiter polls');
      await pause(10);
      events.push('waiter polls again');
    });
    await tick();
    const others = [1, 2].map((n) =>
      inSlot(slots, SLOT_PRIORITY.other, async () => {
        events.push(`other ${n} starts`);
        await new Promise((resolve) => setTimeout(resolve, 30));
        events.push(`other ${n} ends`);
      }),
    );
    await Promise.all([waiter, ...others]);
    // Other 1 ran in the lent slot; the waiter, queued again while it ran, came before other 2 (queued earlier).
    expect(events).toEqual(['waiter polls', 'other 1 starts', 'other 1 ends', 'waiter polls again', 'other 2 starts', 'other 2 ends']);
  });

  test('a body whose test is over holds no slot after its pause', async () => {
    const slots = new CheckSlots(1);
    let bodyDone: Promise<void> | undefined;
    await inSlot(slots, SLOT_PRIORITY.other, async () => {
      // The test ends at once (its time ran out); its body goes on and pauses.
      bodyDone = pause(10);
    });
    await bodyDone;
    let next = false;
    await inSlot(slots, SLOT_PRIORITY.other, async () => {
      next = true;
    });
    expect(next).toBe(true);
    expect(slots.waiting).toBe(0);
  });

  test('outside a check it only waits', async () => {
    const started = Date.now();
    await pause(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});

describe('a cancelled run', () => {
  test('its checks waiting for a slot leave the queue with the signal\'s reason; the others still get theirs', async () => {
    const slots = new CheckSlots(1);
    const held = await slots.acquire(SLOT_PRIORITY.other);
    const controller = new AbortController();
    const cancelled = slots.acquire(SLOT_PRIORITY.other, controller.signal);
    let later = false;
    void slots.acquire(SLOT_PRIORITY.other).then(() => (later = true));
    controller.abort(new Error('the run was cancelled'));
    await expect(cancelled).rejects.toThrow('the run was cancelled');
    expect(slots.waiting).toBe(1);
    held();
    await tick();
    expect(later).toBe(true);
    await expect(slots.acquire(SLOT_PRIORITY.other, controller.signal)).rejects.toThrow('the run was cancelled');
  });
});

describe('a stopped run', () => {
  test('every check still waiting leaves with the stop\'s reason, and none gets a slot after', async () => {
    const slots = new CheckSlots(1);
    await slots.acquire(SLOT_PRIORITY.other);
    const waiting = [slots.acquire(SLOT_PRIORITY.waits), slots.acquire(SLOT_PRIORITY.other)];
    slots.stop(new Error('gave up: 5 requests in a row timed out'));
    for (const one of waiting) await expect(one).rejects.toThrow('gave up');
    expect(slots.waiting).toBe(0);
    await expect(slots.acquire(SLOT_PRIORITY.sequence)).rejects.toThrow('gave up');
  });
});

test('a check holding its slot when the run stops ends at once with the reason, its body left to finish alone', async () => {
  const slots = new CheckSlots(2);
  let bodyEnded = false;
  const check = inSlot(slots, SLOT_PRIORITY.other, async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    bodyEnded = true;
  });
  await tick();
  slots.stop(new Error('interrupted by SIGINT'));
  await expect(check).rejects.toThrow('interrupted by SIGINT');
  expect(bodyEnded).toBe(false);
});

test('a check pausing twice at once gives its slot back once and takes it back once', async () => {
  const slots = new CheckSlots(1);
  await inSlot(slots, SLOT_PRIORITY.other, async () => {
    await Promise.all([pause(20), pause(30)]);
    await pause(5);
  });
  // Exactly one slot again: one check gets it, a second waits.
  const release = await slots.acquire(SLOT_PRIORITY.other);
  let second = false;
  void slots.acquire(SLOT_PRIORITY.other).then(() => (second = true));
  await tick();
  expect(second).toBe(false);
  release();
  await tick();
  expect(second).toBe(true);
});
