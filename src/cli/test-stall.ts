/**
 * Test hook (documented in docs/running.md, "Phases and the supervisor"): a command made to stall in a
 * phase, for the hostile start-up tests (tests/hostile/start-up.test.ts). Honoured only when both variables
 * are set; nothing else reads them (AC_TEST_START_UP_MS, below, is the other hook).
 *
 * - AC_TEST_STALL_PHASE=<phase>: the phase (run-scope.ts RUN_PHASES) to stall in;
 * - AC_TEST_STALL_MODE=hang: the phase waits for ever, the event loop free (a target that never answers,
 *   an embedded reference that never listens, a suite worker that never starts): the scope's own deadline
 *   and signal handlers must end it;
 * - AC_TEST_STALL_MODE=freeze: the main thread never yields again (what Node's key-export deadlock did):
 *   only the supervising parent can end it.
 */
export function testStall(phase: string): Promise<void> {
  if (process.env.AC_TEST_STALL_PHASE !== phase) return Promise.resolve();
  const mode = process.env.AC_TEST_STALL_MODE;
  if (mode === 'freeze') {
    // A busy loop with no way out: timers, signals and IPC all wait behind it.
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
  }
  if (mode === 'hang') return new Promise<void>(() => {});
  return Promise.resolve();
}

/**
 * AC_TEST_START_UP_MS=<ms>: the start-up bound of a command without --max-duration (run-scope.ts
 * START_UP_MS, 3 min), shortened so that a test can see a stalled start-up end without waiting for it.
 */
export function testStartUpMs(): number | undefined {
  const value = Number(process.env.AC_TEST_START_UP_MS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
