/**
 * A run plan (group.ts) as vitest tests, for the suites run under vitest (run-entry.ts): the project's own
 * scheduler (scheduler.ts) is what the engine runs them with; this keeps them runnable by vitest with the
 * same order, slots and outcomes. Every group is a `describe.concurrent`; the clock-moving checks a plain
 * `describe` after them, which vitest starts only when the groups before it have all finished.
 */
import { beforeAll, describe, test, type TestContext } from 'vitest';
import type { CheckFn, CheckRunContext } from './run-context.js';
import { STRAY_CHECKS_BOUND_MS, waitForStrayChecks, type DeferredCheck, type RunPlan } from './group.js';

/** vitest's test context as the check's runner context: its signal, its task meta, its skip. */
function fromVitest(context: TestContext): CheckRunContext {
  return {
    signal: context.signal,
    setMeta: (meta) => {
      context.task.meta.check = meta;
    },
    skip: (reason) => context.skip(reason),
  };
}

function asTest(fn: CheckFn): (context: TestContext) => Promise<void> {
  return (context) => fn(fromVitest(context));
}

export function declarePlan(plan: RunPlan): void {
  const declare = (checks: readonly DeferredCheck[], how: typeof test | typeof test.sequential): void => {
    for (const check of checks) how(check.title, asTest(check.fn));
  };
  if (plan.waiting.length > 0) describe.concurrent('checks that mostly wait, started first', () => declare(plan.waiting, test));
  for (const { title, concurrent, checks } of plan.groups) {
    // Concurrent with its sibling groups; its own checks overlap only in a group.concurrent.
    describe.concurrent(title, () => declare(checks, concurrent ? test : test.sequential));
  }
  describe.concurrent('checks of suites that failed to load or declare', () => declare(plan.failing, test));
  // Not concurrent: vitest starts it only when the concurrent groups before it have all finished.
  describe('checks that move the target clock, one at a time', () => {
    beforeAll(waitForStrayChecks, STRAY_CHECKS_BOUND_MS);
    declare(plan.clock, test.sequential);
  });
}
