/**
 * The one vitest test file of a run: imports the suite files the engine selected (provided as `acSuites`)
 * and declares their groups side by side, so that every group runs at once within `--concurrency`, then the
 * clock-moving checks alone (group.ts). A suite file that cannot be imported errors its own selected checks
 * with the reason; the other groups run.
 */
import { describe, inject, test } from 'vitest';
import { HarnessError } from '../../src/errors.js';
import { requirement, type RequirementId } from '../../src/requirements.js';
import { declareSuites, loadSuite } from './group.js';

const loaded: Array<Awaited<ReturnType<typeof loadSuite>>> = [];
for (const suite of inject('acSuites')) {
  try {
    loaded.push(await loadSuite(suite.group, suite.url));
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    describe.concurrent(`suite ${suite.group} (failed to load)`, () => {
      for (const id of suite.ids) {
        test(`${id} ${requirement(id as RequirementId).text}`, () => {
          throw new HarnessError('INTERNAL', `suite ${suite.group} failed to load: ${why}`, { hint: 'this is a bug in the suite or in the harness; rerun with --only to isolate it' });
        });
      }
    });
  }
}
declareSuites(loaded);
