/**
 * The run's checks in flight (`--concurrency`), handed out by the suites themselves, whichever runner starts
 * them: the project's scheduler (scheduler.ts) or vitest (run-entry.ts).
 *
 * vitest bounds the tests in flight with one first-come queue. Every check of a concurrent group is queued
 * the moment the run starts; a group whose checks run one at a time queues its next check only when the
 * previous one ends, behind all of them. Such a group's checks therefore waited for the whole queue one
 * after another, and its last ones ran alone at the end (in the embedded run a JWT key rotation that waits
 * for the target's refetch: a third of the checks phase). Here the queue has three places: a check that
 * mostly waits (CheckOptions.waitsMs) goes first, then the next check of a group that runs one at a time
 * (or one that moves the clock), then the rest in their order. The runner starts every check of the plan at
 * once (under vitest: src/engine/vitest-bridge.ts) and times none: a check's time limit starts when it first has its slot
 * (check.ts), so a check never times out for waiting for its turn to start (a wait to take its slot back
 * after a pause counts: it is first in line then).
 *
 * A check that only waits between two polls (a run that must not appear, a key rotation) sends nothing
 * meanwhile: it gives its slot back for the pause (`pause`) and queues first for one after it. Held through
 * its watch, a handful of such checks took most of the slots for a second while the other checks queued.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunContext } from '../../src/engine/check-meta.js';
import { joinRunChannel, type RunChannel } from '../../src/engine/run-channel.js';
import { HarnessError } from '../../src/errors.js';

/** The queue's places, first served first. */
export const SLOT_PRIORITY = { waits: 0, sequence: 1, other: 2 } as const;
export type SlotPriority = (typeof SLOT_PRIORITY)[keyof typeof SLOT_PRIORITY];

/** One check waiting for a slot. */
interface Waiter {
  grant: () => void;
  /** Left the queue (its test was cancelled, the run stopped): skipped when its turn comes. */
  left: boolean;
  next: Waiter | undefined;
}

/**
 * First in, first out, as a linked list: a run of a thousand operations queues 17,000 checks at once, and an
 * array's shift() and indexOf() per check would make handing them out quadratic.
 */
class WaitQueue {
  private head: Waiter | undefined;
  private tail: Waiter | undefined;
  /** Waiters that have not left. */
  size = 0;

  push(waiter: Waiter): void {
    if (this.tail) this.tail.next = waiter;
    else this.head = waiter;
    this.tail = waiter;
    this.size += 1;
  }

  /** The first waiter that has not left, taken off the queue. */
  shift(): Waiter | undefined {
    while (this.head) {
      const waiter = this.head;
      this.head = waiter.next;
      if (!this.head) this.tail = undefined;
      if (!waiter.left) {
        this.size -= 1;
        return waiter;
      }
    }
    return undefined;
  }

  /** Marks a waiting waiter as gone; false when it was no longer waiting. */
  remove(waiter: Waiter): boolean {
    if (waiter.left) return false;
    waiter.left = true;
    this.size -= 1;
    return true;
  }
}

export class CheckSlots {
  private free: number;
  private readonly queues = [new WaitQueue(), new WaitQueue(), new WaitQueue()];
  /** Why the run stopped, once it did: no slot is handed out after. */
  private stoppedBy: Error | undefined;
  private readonly onStop = new Set<(reason: Error) => void>();

  constructor(size: number) {
    // A context without the setting (a test's hand-made run) still runs its checks, one at a time.
    this.free = Number.isFinite(size) && size >= 1 ? Math.floor(size) : 1;
  }

  /**
   * Resolves with the slot's release once one is free and no check of an earlier place is waiting; rejects
   * with the signal's reason when it is aborted first (vitest aborts a test's signal when the run is
   * cancelled: a stopped run's waiting checks leave the queue instead of starting one by one).
   */
  acquire(priority: SlotPriority, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted || this.stoppedBy) {
        reject(this.stoppedBy ?? signal!.reason);
        return;
      }
      const queue = this.queues[priority]!;
      const leave = (reason: unknown): void => {
        if (!queue.remove(waiter)) return;
        this.onStop.delete(leave);
        signal?.removeEventListener('abort', onAbort);
        reject(reason);
      };
      const onAbort = (): void => leave(signal!.reason);
      const waiter: Waiter = {
        left: false,
        next: undefined,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.onStop.delete(leave);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.free += 1;
            this.next();
          });
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.onStop.add(leave);
      queue.push(waiter);
      this.next();
    });
  }

  /**
   * The run stopped (the engine said so on the run channel): every check still waiting leaves with
   * `reason`, and none gets a slot after. vitest's own cancel aborts only some of the tests it started.
   */
  stop(reason: Error): void {
    this.stoppedBy ??= reason;
    for (const leave of [...this.onStop]) leave(this.stoppedBy);
  }

  /** A promise that rejects with the stop's reason when the run stops (never resolves), and its removal. */
  whenStopped(): { stopped: Promise<never>; forget: () => void } {
    let listener: ((reason: Error) => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      if (this.stoppedBy) reject(this.stoppedBy);
      else this.onStop.add((listener = reject));
    });
    stopped.catch(() => undefined);
    return { stopped, forget: () => listener && this.onStop.delete(listener) };
  }

  /** The run stopped: no slot is handed out any more. */
  get stopped(): boolean {
    return this.stoppedBy !== undefined;
  }

  /** Checks waiting for a slot. */
  get waiting(): number {
    return this.queues.reduce((sum, queue) => sum + queue.size, 0);
  }

  private next(): void {
    while (this.free > 0) {
      const waiter = this.queues.find((queue) => queue.size > 0)?.shift();
      if (waiter === undefined) return;
      this.free -= 1;
      waiter.grant();
    }
  }
}

let current: { runId: string; slots: CheckSlots; channel: RunChannel | undefined } | undefined;

/**
 * The slots of the run in progress (a worker thread serves run after run), listening on the run's channel
 * for the engine's `stop`: the checks still waiting then error with the stop's reason, never started.
 */
export function runSlots(run: Pick<RunContext, 'runId' | 'concurrency' | 'channel'>): CheckSlots {
  if (current?.runId !== run.runId) {
    current?.channel?.close();
    const slots = new CheckSlots(run.concurrency);
    const channel =
      run.channel === undefined
        ? undefined
        : joinRunChannel(run.channel, (message) => {
            if (message.kind === 'stop') slots.stop(new HarnessError(message.code, `the run stopped: ${message.reason}`));
          });
    current = { runId: run.runId, slots, channel };
  }
  return current.slots;
}

/** The slot of the check whose code is running: given back while it pauses. */
interface HeldSlot {
  slots: CheckSlots;
  signal: AbortSignal | undefined;
  release: (() => void) | undefined;
  /** Pauses in progress: the slot is given back at the first and taken again when the last ends. */
  pauses: number;
  /** Taking the slot back after the last pause (one request at a time, whatever pauses end together). */
  retaking: Promise<void> | undefined;
  /** The check's test is over (it ended, or its time ran out while its body still runs): it holds nothing more. */
  done: boolean;
}

const held = new AsyncLocalStorage<HeldSlot>();

/**
 * Runs `work` once it has a slot of `slots`, and gives the slot back when it ends. `signal` (the test's)
 * aborted: it leaves the queue, and a body that outlives its test takes no slot again.
 */
export async function inSlot<T>(slots: CheckSlots, priority: SlotPriority, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const slot: HeldSlot = { slots, signal, release: await slots.acquire(priority, signal), pauses: 0, retaking: undefined, done: false };
  const { stopped, forget } = slots.whenStopped();
  try {
    // A stopped run ends its tests at once, as vitest's cancel would: a body waiting on a hung target goes
    // on alone (the engine ends the thread), instead of holding the run until its request times out.
    return await Promise.race([held.run(slot, work), stopped]);
  } finally {
    forget();
    slot.done = true;
    slot.release?.();
    slot.release = undefined;
  }
}

/**
 * Waits `ms`. In a check, its slot goes to another check meanwhile and is taken back first in line after
 * (a check pausing twice at once gives it back once and takes it back once); elsewhere (a hook) it just
 * waits.
 */
export async function pause(ms: number): Promise<void> {
  const slot = held.getStore();
  if (slot) {
    // A pause that starts while the slot is being taken back waits for that first.
    await slot.retaking;
    slot.pauses += 1;
    slot.release?.();
    slot.release = undefined;
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
  if (!slot) return;
  slot.pauses -= 1;
  if (slot.pauses > 0 || slot.done || slot.signal?.aborted) return;
  slot.retaking = (async () => {
    let release: () => void;
    try {
      release = await slot.slots.acquire(SLOT_PRIORITY.waits, slot.signal);
    } catch {
      // The run was cancelled meanwhile: the body goes on without a slot, as vitest has let go of its test.
      return;
    }
    // The test ended while this body waited (its time ran out), or a pause began meanwhile: not kept.
    if (slot.done || slot.pauses > 0) release();
    else slot.release = release;
  })();
  try {
    await slot.retaking;
  } finally {
    slot.retaking = undefined;
  }
}
