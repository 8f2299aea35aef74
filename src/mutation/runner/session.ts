/**
 * A suite session for the fault and variant runner: the engine's own session (engine/session.ts), opened
 * once per worker process and run against target after target, with the settings `run` gives a run (the
 * deadline, give-up, Retry-After cap, run channel): a fault judged here is judged as `run --fault` judges it.
 * This file only narrows the engine's summary to what the judge reads.
 */
import { openEngineSession } from '../../engine/session.js';
import type { RunContext } from '../../engine/check-meta.js';
import type { CheckResult } from '../../engine/types.js';
import type { ResolvedProfile } from '../../profile/types.js';
import { stopMs } from '../../stop/timings.js';

export interface SessionOptions {
  /** Checks in flight at once (as `run --concurrency`); one suite worker thread. */
  checksInFlight: number;
  /** Per-request timeout, as `run --timeout`. */
  timeoutMs: number;
}

export interface SessionRun {
  results: CheckResult[];
  /** Errors outside any check (a module that failed to load, an unhandled rejection, a run that stopped). */
  harnessErrors: string[];
  capabilities: RunContext['capabilities'];
}

export interface SuiteSession {
  run(profile: ResolvedProfile, ids: readonly string[], seed: string): Promise<SessionRun>;
  close(): Promise<void>;
}

export function createSuiteSession(options: SessionOptions): SuiteSession {
  const session = openEngineSession({ concurrency: options.checksInFlight, client: { timeoutMs: options.timeoutMs } });
  return {
    async run(profile, ids, seed) {
      const summary = await session.run({ profile, selection: { only: [...ids], skip: [] }, seed, strict: false, reporters: [], passedExchanges: false, maxDurationMs: stopMs('faultRun') });
      const stopped = summary.aborted ? [`${summary.aborted.code}: ${summary.aborted.message}`] : [];
      return {
        results: summary.results,
        harnessErrors: [...summary.harnessErrors.map((error) => error.message), ...stopped],
        capabilities: summary.header.capabilities,
      };
    },
    close: () => session.close(),
  };
}
