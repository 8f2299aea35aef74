/**
 * The run in progress, as the suites see it: the engine's `RunContext`. Whoever runs the checks sets it before
 * a suite file is imported (the project's scheduler, scheduler.ts; or vitest's run entry, run-entry.ts, from
 * its `inject`), so that check.ts and group.ts read it without knowing which runner runs them. One run at a
 * time per module instance (a thread or process runs run after run, never two at once).
 */
import type { CheckMeta, RunContext } from '../../src/engine/check-meta.js';

let current: RunContext | undefined;

export function setCurrentRun(run: RunContext): void {
  current = run;
}

export function currentRun(): RunContext {
  if (current === undefined) throw new Error('no run in progress: suite files run through the engine (access-conformance run)');
  return current;
}

/**
 * What a check's body gets from the runner that runs it: the test's signal (aborted when the runner lets go
 * of it), where its meta goes, and how it skips (throws; the runner reports the check skipped with `reason`).
 */
export interface CheckRunContext {
  readonly signal?: AbortSignal;
  setMeta(meta: CheckMeta): void;
  skip(reason: string): never;
}

/** A check's body as a runner calls it. */
export type CheckFn = (context: CheckRunContext) => Promise<void>;

/** The project's scheduler's skip: thrown by `CheckRunContext.skip`, read back as a skipped check with its note. */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
  constructor(readonly note: string) {
    super(note);
  }
}
