/**
 * What `run` does once its flags parsed: start or load the target, run the checks, write the reports. Kept
 * apart from run.ts so that `run --help` loads only the option table, not the engine and the reference.
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/fake.js';
import { loadBaseline, preloadVitest, resolveSelection, runConformance } from '../../engine/index.js';
import { runSecrets } from '../../client/index.js';
import { HarnessError, signalExitCode } from '../../errors.js';
import { stopOnSignals } from '../signals.js';
import { createRedact, createReporters, createScrub } from '../../reporters/index.js';
import { removePreviousOutputs } from '../../reporters/out-dir.js';
import type { RunInvocation } from '../../reporters/rerun.js';
import { parseRunArgs, type RunOptions, type TargetPlan } from './run-options.js';
import { startTarget } from './run-target.js';
import { isUrlSource } from '../../openapi/index.js';
import type { ResolvedProfile } from '../../profile/types.js';

export async function runHandler(options: RunOptions): Promise<number> {
  const plan = parseRunArgs(options);
  // Usage problems surface before anything starts.
  resolveSelection({ only: plan.only, skip: plan.skip });
  const baseline = plan.baseline === undefined ? undefined : await loadBaseline(plan.baseline);
  const seed = plan.seed ?? randomSeed();
  const outDir = resolve(plan.out);
  // An earlier run's reports in a reused --out would sit beside this run's: removed first (reporters/out-dir.ts).
  const removed = await removePreviousOutputs(outDir);
  if (removed.length > 0) process.stdout.write(`${plan.out}: removed ${removed.join(', ')} left by an earlier run\n`);

  // The engine's vitest loads while the target starts (the embedded sandbox generates keys off-thread).
  preloadVitest();
  const target = await startTarget(plan.target, seed, outDir);
  // From here the run has started: a signal stops it, the reports are still written, then the process exits.
  const interrupt = new AbortController();
  const stopOnSignal = stopOnSignals(interrupt, 'the run', target.close);
  try {
    const reporters = createReporters(plan.reporter, {
      outDir,
      stdout: process.stdout,
      env: process.env,
      redact: createRedact(target.profile),
      scrub: createScrub(target.profile),
      artifacts: [],
      invocation: { ...invocationOf(plan.target), ...(plan.openapi === undefined ? {} : { openapi: plan.openapi }) },
      ...(plan.har === undefined ? {} : { harPath: plan.har }),
    });
    const summary = await runConformance({
      profile: withOpenapi(target.profile, plan.openapi),
      selection: { only: plan.only, skip: plan.skip },
      seed,
      client: plan.client,
      ...(plan.maxDuration === undefined ? {} : { maxDurationMs: plan.maxDuration }),
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
    } else if (summary.uniformAnswer) {
      // Not 150 failures: one misconfiguration, with its stable code (src/engine/uniform-answer.ts).
      process.stderr.write(`${new HarnessError('UNIFORM_ANSWER', summary.uniformAnswer.message, { hint: summary.uniformAnswer.hint }).format()}\n`);
    }
    return exitCode;
  } finally {
    stopOnSignal();
    await target.close();
  }
}

/** `--openapi` replaces the profile's `"openapi"`: a file relative to the current directory, or a URL. */
function withOpenapi(profile: ResolvedProfile, openapi: string | undefined): ResolvedProfile {
  if (openapi === undefined) return profile;
  return { ...profile, openapi: isUrlSource(openapi) ? openapi : resolve(openapi) };
}

/** What a failed check's rerun line repeats of this run's target (reporters/rerun.ts). */
function invocationOf(target: TargetPlan): RunInvocation {
  if (target.kind === 'profile') return { kind: 'profile', path: target.path };
  if (target.kind === 'image') return { kind: 'image', image: target.image };
  return { kind: 'embedded', faults: target.faults };
}
