/**
 * The engine's runner for run after run (the fault self-verification runs hundreds of targets in one
 * process): the suites' own scheduler runs the checks in the engine's thread, every selected group at once
 * and the clock-moving checks last, and starts no thread; under vitest (`runner: 'vitest'`) one worker
 * thread serves every run. Checked by counting, not by timing: two targets, each with a clock-moving check,
 * each run reports against its own target.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { openEngineSession } from '../../src/engine/session.js';
import { loadProfile } from '../../src/profile/index.js';
import { startSandbox, type Sandbox } from '../../src/tenant/index.js';
import { suiteThreadsStarted } from '../../src/engine/suite-pool.js';

const IDS = ['OWN-01', 'WH-01', 'AUTH-07'];
const sandboxes: Sandbox[] = [];

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

describe.each([
  ['scheduler', 0],
  ['vitest', 1],
] as const)('one runner for run after run (%s)', (runner, threads) => {
  test(`two targets, each with a clock-moving check: ${threads} suite thread(s) started, each run against its own target`, async () => {
    const session = openEngineSession({ concurrency: 8, client: { timeoutMs: 10_000 }, runner });
    const before = suiteThreadsStarted();
    try {
      for (const seed of [`${runner}-a`, `${runner}-b`]) {
        const sandbox = await startSandbox({ seed, hooks: true, logger: () => undefined });
        sandboxes.push(sandbox);
        const run = await session.run({ profile: await loadProfile(sandbox.profilePath), selection: { only: IDS, skip: [] }, seed, strict: false, reporters: [] });
        expect(run.harnessErrors).toEqual([]);
        // AUTH-07 expects a refusal: its positive control AUTH-10 joins the run (src/engine/controls.ts).
        expect(run.results.map((result) => `${result.id} ${result.state} ${result.phase}`).sort()).toEqual(['AUTH-07 passed clock', 'AUTH-10 passed main', 'OWN-01 passed main', 'WH-01 passed main']);
        // The run's client followed the target: this sandbox recorded the run's webhook (WH-01).
        expect(sandbox.reference.deps.eventStore.size()).toBeGreaterThan(0);
      }
      expect(suiteThreadsStarted() - before).toBe(threads);
    } finally {
      await session.close();
    }
  }, 120_000);
});
