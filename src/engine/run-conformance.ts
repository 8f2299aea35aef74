/**
 * runConformance: one run against one target, for `run` and for library callers. It opens an engine
 * session (session.ts, the one place a run is built), runs once and closes it; the fault and variant
 * runner keeps its session open instead, for target after target.
 */
import { openEngineSession } from './session.js';
import type { SessionRunOptions, SessionSettings } from './session-options.js';
import type { RunSummary } from './types.js';

export { CHECK_TIMEOUT_FACTOR } from './limits.js';

/** A session's settings and its one run's options. */
export type RunOptions = SessionSettings & SessionRunOptions;

export async function runConformance(options: RunOptions): Promise<RunSummary> {
  const { concurrency, client, ...run } = options;
  const session = openEngineSession({ concurrency, client });
  try {
    return await session.run(run);
  } finally {
    await session.close();
  }
}
