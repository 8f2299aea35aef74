/**
 * The end of every run (vitest.config.ts): each skipped test listed with its reason (the note of
 * `skipUnless`, tests/support/capabilities.ts), so no skip passes unseen; a skip without a note says so.
 */
import type { Reporter, TestModule } from 'vitest/node';

export interface SkippedTest {
  /** The test's file, relative to the root, and its full name. */
  test: string;
  reason: string;
}

/** Every skipped test of the run with its reason (a test skipped by `only` elsewhere is not a skip of the machine's). */
export function skippedTests(modules: ReadonlyArray<TestModule>): SkippedTest[] {
  const skipped: SkippedTest[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state !== 'skipped' || test.options.mode === 'only') continue;
      skipped.push({ test: `${module.relativeModuleId} > ${test.fullName}`, reason: result.note ?? `no reason given (${test.options.mode === 'todo' ? 'todo' : 'skipped without skipUnless'})` });
    }
  }
  return skipped;
}

export default class SkipSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = skippedTests(modules);
    if (skipped.length === 0) return;
    const lines = skipped.map(({ test, reason }) => `  - ${test}\n      ${reason}`);
    process.stdout.write(`\n${skipped.length} skipped, each with its reason:\n${lines.join('\n')}\n`);
  }
}
