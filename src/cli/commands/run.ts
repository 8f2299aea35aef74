/**
 * `access-conformance run`: start or load the target, run the selected checks through the engine, write
 * the reports, and exit 0 (conformant), 1 (not conformant) or 2 (harness or usage error).
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/fake.js';
import { loadBaseline, preloadVitest, resolveSelection, runConformance } from '../../engine/index.js';
import { createRedact, createReporters, createScrub } from '../../reporters/index.js';
import { defineCommand } from '../command.js';
import { parseRunArgs, RUN_EXAMPLES, RUN_OPTIONS, type RunArgs } from './run-options.js';
import { startTarget } from './run-target.js';

export const runCommand = defineCommand<RunArgs>({
  command: 'run',
  describe: 'Check an implementation against the requirement catalogue (the embedded reference when no --profile or --image is given)',
  builder: (y) => {
    let built = y.options(RUN_OPTIONS);
    for (const [command, description] of RUN_EXAMPLES) built = built.example(command, description);
    return built.epilogue(
      'Exit codes: 0 no MUST failed (and something was checked); 1 a MUST failed (or a SHOULD with --strict); 2 harness or usage error, ' +
        'including a check the harness could not decide when nothing failed. Every flag also reads ACCESS_CONFORMANCE_<FLAG> ' +
        '(e.g. ACCESS_CONFORMANCE_RATE_LIMIT=20/s). See docs/running.md.',
    ) as never;
  },
  run: async (args) => {
    const plan = parseRunArgs(args);
    // Usage problems surface before anything starts.
    resolveSelection({ only: plan.only, skip: plan.skip });
    const baseline = plan.baselinePath === undefined ? undefined : await loadBaseline(plan.baselinePath);
    const seed = plan.seed ?? randomSeed();
    const outDir = resolve(plan.outDir);

    // The engine's vitest loads while the target starts (the embedded sandbox generates keys off-thread).
    preloadVitest();
    const target = await startTarget(plan.target, seed, outDir);
    const stopOnSignal = closeOnSignal(target.close);
    try {
      const reporters = createReporters(plan.reporters, {
        outDir,
        stdout: process.stdout,
        env: process.env,
        redact: createRedact(target.profile),
        scrub: createScrub(target.profile),
        artifacts: [],
      });
      const summary = await runConformance({
        profile: target.profile,
        selection: { only: plan.only, skip: plan.skip },
        seed,
        timeoutMs: plan.timeoutMs,
        concurrency: plan.concurrency,
        ...(plan.rateLimit === undefined ? {} : { rateLimit: plan.rateLimit }),
        strict: plan.strict,
        ...(baseline ? { baseline } : {}),
        reporters,
        ...(target.description ? { targetDescription: target.description } : {}),
        ...(target.jwksListenHost === undefined ? {} : { jwksListenHost: target.jwksListenHost }),
      });
      return summary.verdict.exitCode;
    } finally {
      stopOnSignal();
      await target.close();
    }
  },
});

/** How long an interrupted run waits for the target (a container, the embedded reference) to stop. */
const SIGNAL_CLOSE_MS = 15_000;

/**
 * Ctrl-C or SIGTERM during a run: stop what the run started (a container would otherwise outlive it), then
 * let the signal end the process as it would have. Returns the function that removes the handlers.
 */
function closeOnSignal(close: () => Promise<void>): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    remove();
    process.stderr.write(`\n${signal}: stopping the target...\n`);
    const timer = setTimeout(() => process.kill(process.pid, signal), SIGNAL_CLOSE_MS);
    void close()
      .catch((error: unknown) => {
        // The process is about to end either way; what could not be stopped (a container) must be said.
        process.stderr.write(`could not stop the target cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
      })
      .finally(() => {
        clearTimeout(timer);
        process.kill(process.pid, signal);
      });
  };
  const remove = (): void => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return remove;
}
