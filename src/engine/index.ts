/** The engine: runs the suites against a target and emits events to reporters. */
export { runConformance, CHECK_TIMEOUT_FACTOR, type RunOptions } from './run-conformance.js';
export { openEngineSession, type EngineSession } from './session.js';
export type { EnginePhase, SessionRunOptions, SessionSettings } from './session-options.js';
export { preloadVitest } from './vitest-bridge.js';
export { reportUnstartedRun, NOT_STARTED, type UnstartedRunOptions } from './unstarted.js';
export { loadBaseline, parseBaseline, type Baseline } from './baseline.js';
export { resolveSelection, splitPatterns, nearMatches, testNamePattern } from './selection.js';
export { packageRoot, toolVersion, TOOL_NAME } from '../package.js';
export { computeVerdict, isBlocking } from './verdict.js';
export { computeTotals, countsLine, displayState, DISPLAY_ORDER, DISPLAY_TOTAL, failureKind, type DisplayState } from './counts.js';
export type * from './types.js';
export type { CheckMeta, RunContext } from './check-meta.js';
