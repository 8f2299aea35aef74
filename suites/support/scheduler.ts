/**
 * The project's own check scheduler: how the engine runs a run's checks, in its own thread, without a test
 * runner. The checks are plain functions keyed by result key (check.ts); a run plan (group.ts) says which
 * start together: the checks that mostly wait, then every group side by side (a `group.concurrent`'s checks
 * at once, a `group`'s one after the other), then the checks of suites that could not declare; when all of
 * them have ended, the clock-moving checks one at a time. check-slots.ts hands out the `--concurrency` slots
 * among the started checks, as under vitest. Each check's time limit, skip and error classification are
 * check.ts's; this module only starts the checks in order and hands each outcome to the engine's sink.
 *
 * Why not vitest, which ran them until issue 46: a one-check run spent most of its time starting vitest
 * (vite's server, the worker thread and vitest's runtime in it, collection) for a check of milliseconds.
 * The suites stay runnable under vitest (run-entry.ts) with the same plan.
 *
 * A stop (the run's signal) ends the run at once: the checks waiting for a slot leave with the reason, no
 * check starts after, and the run returns without waiting for the bodies in flight (each check's body goes
 * on alone; the engine has already marked every unfinished check with the stop's reason).
 */
import type { RawCheckOutcome, RunSink, ScheduledRun } from '../../src/engine/check-meta.js';
import { errorLine, HarnessError } from '../../src/errors.js';
import { runSlots } from './check-slots.js';
import { closeSuiteClient } from './check.js';
import { loadSuites, planSuites, waitForStrayChecks, type DeferredCheck } from './group.js';
import { CheckSkipped, setCurrentRun, type CheckRunContext } from './run-context.js';

/** One check's outcome as vitest would have reported it: passed, skipped with its note, or failed with its error. */
async function runCheck(check: DeferredCheck, signal: AbortSignal | undefined): Promise<RawCheckOutcome> {
  let meta: RawCheckOutcome['meta'];
  const startedAt = Date.now();
  const context: CheckRunContext = {
    ...(signal ? { signal } : {}),
    setMeta: (value) => {
      meta = value;
    },
    skip: (reason) => {
      throw new CheckSkipped(reason);
    },
  };
  const done = (state: RawCheckOutcome['state'], extra: Partial<RawCheckOutcome> = {}): RawCheckOutcome => ({
    id: check.key,
    state,
    ...(meta ? { meta } : {}),
    errors: [],
    durationMs: meta?.durationMs ?? Date.now() - startedAt,
    ...extra,
  });
  try {
    // Called now, not after an await: the check queues for its slot in the order the plan starts it.
    await check.fn(context);
    return done('passed');
  } catch (error) {
    if (error instanceof CheckSkipped) return done('skipped', { note: error.note });
    const failure = error instanceof Error ? error : new Error(String(error));
    const code = (failure as { code?: unknown }).code;
    return done('failed', { errors: [{ name: failure.name, message: failure.message, ...(code === undefined ? {} : { code }) }] });
  }
}

/** Runs the selected checks of `run.suites`; resolves when they have all reported, or at once when the run stops. */
export async function runChecks(run: ScheduledRun, sink: RunSink): Promise<void> {
  const { signal } = run;
  setCurrentRun(run.context);
  const slots = runSlots(run.context);
  // The engine posts its stop, with the reason, on the run channel too; in this thread the signal is heard
  // first. The reason shown is the engine's (it marks every unfinished check): a check leaving now is not reported.
  const onStop = (): void => {
    slots.stop(new HarnessError('INTERRUPTED', 'the run stopped'));
    void closeSuiteClient();
  };
  signal?.addEventListener('abort', onStop, { once: true });
  const stopped = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    const selected = new Set(run.ids);
    const plan = planSuites(await loadSuites(run.suites));
    const start = (check: DeferredCheck): Promise<void> => {
      if (!selected.has(check.key) || signal?.aborted) return Promise.resolve();
      sink.checkStarted(check.key);
      return runCheck(check, signal).then((outcome) => {
        // After a stop the engine has closed the run: a late outcome is not reported.
        if (!signal?.aborted) sink.check(outcome);
      });
    };
    const oneAfterAnother = async (checks: readonly DeferredCheck[]): Promise<void> => {
      for (const check of checks) {
        if (signal?.aborted) return;
        await start(check);
      }
    };
    const phaseOne = Promise.all([
      ...plan.waiting.map(start),
      ...plan.groups.map(({ concurrent, checks }) => (concurrent ? Promise.all(checks.map(start)) : oneAfterAnother(checks))),
      ...plan.failing.map(start),
    ]);
    await Promise.race([phaseOne, stopped]);
    if (signal?.aborted) return;
    const clock = plan.clock.filter((check) => selected.has(check.key));
    if (clock.length === 0) return;
    await Promise.race([waitForStrayChecks(), stopped]);
    await Promise.race([oneAfterAnother(clock), stopped]);
  } catch (error) {
    sink.runFailed([errorLine(error)]);
  } finally {
    signal?.removeEventListener('abort', onStop);
  }
}

/** The runner closes: the last run's client and its keep-alive sockets with it. */
export async function close(): Promise<void> {
  await closeSuiteClient();
}
