/**
 * What `run` does once its flags parsed: start or load the target, run the checks, write the reports. Kept
 * apart from run.ts so that `run --help` loads only the option table, not the engine and the reference.
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/fake.js';
import { loadBaseline, preloadVitest, resolveSelection, runConformance } from '../../engine/index.js';
import { runSecrets } from '../../client/index.js';
import { HarnessError } from '../../errors.js';
import { createRedact, createReporters, createScrub } from '../../reporters/index.js';
import { parseRunArgs, type RunArgs } from './run-options.js';
import { startTarget } from './run-target.js';

export async function runHandler(args: RunArgs): Promise<number> {
  const plan = parseRunArgs(args);
  // Usage problems surface before anything starts.
  resolveSelection({ only: plan.only, skip: plan.skip });
  const baseline = plan.baselinePath === undefined ? undefined : await loadBaseline(plan.baselinePath);
  const seed = plan.seed ?? randomSeed();
  const outDir = resolve(plan.outDir);

  // The engine's vitest loads while the target starts (the embedded sandbox generates keys off-thread).
  preloadVitest();
  const target = await startTarget(plan.target, seed, outDir);
  // From here the run has started: a signal stops it, the reports are still written, then the process exits.
  const interrupt = new AbortController();
  const stopOnSignal = closeOnSignal(target.close, interrupt);
  try {
    const reporters = createReporters(plan.reporters, {
      outDir,
      stdout: process.stdout,
      env: process.env,
      redact: createRedact(target.profile),
      scrub: createScrub(target.profile),
      artifacts: [],
      ...(plan.harPath === undefined ? {} : { harPath: plan.harPath }),
    });
    const summary = await runConformance({
      profile: target.profile,
      selection: { only: plan.only, skip: plan.skip },
      seed,
      client: plan.client,
      ...(plan.maxDurationMs === undefined ? {} : { maxDurationMs: plan.maxDurationMs }),
      maxConsecutiveFailures: plan.maxConsecutiveFailures,
      concurrency: plan.concurrency,
      strict: plan.strict,
      ...(baseline ? { baseline } : {}),
      reporters,
      ...(target.description ? { targetDescription: target.description } : {}),
      ...(target.jwksListenHost === undefined ? {} : { jwksListenHost: target.jwksListenHost }),
      interrupt: interrupt.signal,
    });
    const exitCode = summary.aborted?.signal ? signalExitCode(summary.aborted.signal) : summary.verdict.exitCode;
    if (summary.aborted && !summary.aborted.signal) {
      const { code, message, hint } = summary.aborted;
      process.stderr.write(`${new HarnessError(code, runSecrets().redact(message), hint ? { hint } : {}).format()}\n`);
    }
    return exitCode;
  } finally {
    stopOnSignal();
    await target.close();
  }
}

/** 128 + the signal's number, as a shell reports a process the signal ended. */
function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** How long an interrupted run waits for the target (a container, the embedded reference) to stop. */
const SIGNAL_CLOSE_MS = 15_000;

/**
 * Ctrl-C or SIGTERM during a run (a CI job timeout sends SIGTERM): the first stops the run, which records the
 * unfinished checks, writes every report and exits 130 / 143 once the target is stopped. A second signal,
 * or reports that take too long, stop the target and end the process at once.
 */
function closeOnSignal(close: () => Promise<void>, interrupt: AbortController): () => void {
  let forced = false;
  const force = (signal: NodeJS.Signals): void => {
    if (forced) return;
    forced = true;
    remove();
    const timer = setTimeout(() => process.exit(signalExitCode(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM')), SIGNAL_CLOSE_MS);
    void close()
      .catch((error: unknown) => {
        // The process is about to end either way; what could not be stopped (a container) must be said.
        process.stderr.write(`could not stop the target cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
      })
      .finally(() => {
        clearTimeout(timer);
        process.exit(signalExitCode(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM'));
      });
  };
  const handler = (signal: NodeJS.Signals): void => {
    if (interrupt.signal.aborted) {
      force(signal);
      return;
    }
    const name = signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    process.stderr.write(`\n${signal}: stopping the run and writing the reports (${signal} again to quit at once)...\n`);
    interrupt.abort({ code: 'INTERRUPTED', message: `the run was interrupted by ${name}`, signal: name });
    // Reports that hang must not hold a CI job past its own timeout.
    setTimeout(() => force(signal), SIGNAL_REPORT_MS).unref();
  };
  const remove = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return remove;
}

/** How long an interrupted run may take to write its reports before the process is ended anyway. */
const SIGNAL_REPORT_MS = 20_000;
