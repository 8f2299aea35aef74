/**
 * The one vitest test file of a run: imports the suite files the engine selected (provided as `acSuites`)
 * and declares their groups side by side, so that every group runs at once within `--concurrency`, then the
 * clock-moving checks alone (group.ts). A suite file that cannot be imported, or a group that throws while
 * it declares its checks, errors that suite's selected checks with the reason; the other groups run.
 */
import { inject } from 'vitest';
import { errorLine } from '../../src/errors.js';
import { declareSuites, loadSuite, type SuiteToDeclare } from './group.js';
import { runSlots } from './check-slots.js';

// The run's slots listen on its channel from now: a stop the engine posts while the suites are collected
// is heard before any check asks for a slot.
runSlots(inject('acRun'));

const suites: SuiteToDeclare[] = [];
for (const { group, ids, url } of inject('acSuites')) {
  try {
    suites.push({ group, ids, declarations: await loadSuite(group, url) });
  } catch (error) {
    suites.push({ group, ids, declarations: [], loadError: `suite ${group} failed to load: ${errorLine(error)}` });
  }
}
declareSuites(suites);
