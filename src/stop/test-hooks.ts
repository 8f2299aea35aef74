/**
 * Test hooks (docs/running.md, "Stopping"), for the hostile start-up tests (tests/hostile/start-up.test.ts);
 * nothing else reads these variables.
 *
 * - AC_TEST_STALL=<phase>:hang: that phase (phase.ts) waits for ever with the event loop free (a target that
 *   never answers, an embedded reference that never listens, a suite worker that never starts): the run
 *   scope's own deadline and signal handlers must end it;
 * - AC_TEST_STALL=<phase>:freeze: the main thread never yields again (what Node 20's key-export deadlock
 *   did): only the supervising parent can end it;
 * - AC_TEST_START_UP_MS=<ms>: the start-up bound (timings.ts `startUp`, 3 min), shortened so that a test sees
 *   a stalled start-up end without waiting for it.
 */
import type { Phase } from './phase.js';

export function testStall(phase: Phase): Promise<void> {
  const [stalled, mode] = (process.env.AC_TEST_STALL ?? '').split(':');
  if (stalled !== phase) return Promise.resolve();
  if (mode === 'freeze') {
    // A busy loop with no way out: timers, signals and IPC all wait behind it.
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
  }
  if (mode === 'hang') return new Promise<void>(() => {});
  return Promise.resolve();
}

export function testStartUpMs(): number | undefined {
  const value = Number(process.env.AC_TEST_START_UP_MS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
