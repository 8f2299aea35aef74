/**
 * The engine's one worker thread: a run is one vitest file in which every selected group runs at once and the
 * clock-moving checks run last, and the thread is kept for the next run (the fault self-verification runs
 * hundreds of targets in one process). Checked by counting, not by timing: two targets, each with a
 * clock-moving check, start one suite thread in all, and each run reports against its own target.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { createSuiteSession } from '../../src/mutation/runner/session.js';
import { loadProfile } from '../../src/profile/index.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { suiteThreadsStarted } from '../../src/engine/suite-pool.js';

const IDS = ['OWN-01', 'WH-01', 'AUTH-07'];
const sandboxes: Sandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

describe('one suite thread for run after run', () => {
  test('two targets, each with a clock-moving check: one thread started, each run against its own target', async () => {
    const session = createSuiteSession({ checksInFlight: 8, timeoutMs: 10_000 });
    const before = suiteThreadsStarted();
    try {
      for (const seed of ['thread-a', 'thread-b']) {
        const sandbox = await startSandbox({ seed, hooks: true, logger: () => undefined });
        sandboxes.push(sandbox);
        const run = await session.run(await loadProfile(sandbox.profilePath), IDS, seed);
        expect(run.harnessErrors).toEqual([]);
        // AUTH-07 expects a refusal: its positive control AUTH-10 joins the run (src/engine/controls.ts).
        expect(run.results.map((result) => `${result.id} ${result.state} ${result.phase}`).sort()).toEqual(['AUTH-07 passed clock', 'AUTH-10 passed main', 'OWN-01 passed main', 'WH-01 passed main']);
        // The run's client followed the target: this sandbox recorded the run's webhook (WH-01).
        expect(sandbox.reference.deps.eventStore.size()).toBeGreaterThan(0);
      }
      expect(suiteThreadsStarted() - before).toBe(1);
    } finally {
      await session.close();
    }
  }, 120_000);
});
