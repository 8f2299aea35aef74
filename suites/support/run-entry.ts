/**
 * The one vitest test file of a run: imports the suite files the engine selected (provided as `acSuites`)
 * and declares their groups side by side, so that every group runs at once within `--concurrency`, then the
 * clock-moving checks alone (group.ts). A suite file that cannot be imported, or a group that throws while
 * it declares its checks, errors that suite's selected checks with the reason; the other groups run.
 */
import { describe, inject } from 'vitest';
import { declareFailing, declareSuites, describeError, loadSuite, type SuiteToDeclare } from './group.js';

const loaded: SuiteToDeclare[] = [];
for (const suite of inject('acSuites')) {
  try {
    loaded.push({ group: suite.group, ids: suite.ids, declarations: await loadSuite(suite.group, suite.url) });
  } catch (error) {
    const why = `suite ${suite.group} failed to load: ${describeError(error)}`;
    describe.concurrent(`suite ${suite.group} (failed to load)`, () => {
      for (const id of suite.ids) declareFailing(id, why);
    });
  }
}
declareSuites(loaded);
