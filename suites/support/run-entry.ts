/**
 * The one vitest test file of a run under vitest: imports the suite files the engine selected (provided as
 * `acSuites`) and declares their groups side by side, so that every group runs at once within
 * `--concurrency`, then the clock-moving checks alone (group.ts, vitest-declare.ts). A suite file that cannot
 * be imported, or a group that throws while it declares its checks, errors that suite's selected checks with
 * the reason; the other groups run. The engine itself runs the same plan with the project's scheduler
 * (scheduler.ts); this entry keeps the suites runnable under vitest.
 */
import { inject } from 'vitest';
import { loadSuites, planSuites } from './group.js';
import { runSlots } from './check-slots.js';
import { setCurrentRun } from './run-context.js';
import { declarePlan } from './vitest-declare.js';

const run = inject('acRun');
setCurrentRun(run);
// The run's slots listen on its channel from now: a stop the engine posts while the suites are collected
// is heard before any check asks for a slot.
runSlots(run);
declarePlan(planSuites(await loadSuites(inject('acSuites'))));
