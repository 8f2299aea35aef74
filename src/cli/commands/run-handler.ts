/**
 * What `run` does once its flags parsed: start or load the target, run the checks, write the reports. Kept
 * apart from run.ts so that `run --help` loads only the option table, not the engine and the reference.
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/fake.js';
import { loadBaseline, preloadVitest, resolveSelection, runConformance } from '../../engine/index.js';
import { runSecrets } from '../../client/index.js';
import { HarnessError, isHarnessError, signalExitCode } from '../../errors.js';
import { openRunScope, ScopeStopped, START_UP_MS, type RunScope } from '../run-scope.js';
import { writeStoppedReport, type StoppedReportInput } from '../stopped-report.js';
import { createRedact, createReporters, createScrub } from '../../reporters/index.js';
import { removePreviousOutputs } from '../../reporters/out-dir.js';
import type { RunInvocation } from '../../reporters/rerun.js';
import { parseRunArgs, type RunOptions, type TargetPlan } from './run-options.js';
import { startTarget, type StartedTarget } from './run-target.js';
import { currentLauncher } from '../launcher.js';
import { isUrlSource } from '../../openapi/index.js';
import type { ResolvedProfile } from '../../profile/types.js';

export async function runHandler(options: RunOptions): Promise<number> {
  const startedAt = Date.now();
  const plan = parseRunArgs(options);
  // Usage problems surface before anything starts.
  resolveSelection({ only: plan.only, skip: plan.skip });
  // From here the deadline and the signals hold, in every phase (run-scope.ts); without --max-duration the
  // start-up alone is bounded (an image adds the time it may take to start).
  const scope = openRunScope({
    what: 'the run',
    ...(plan.maxDuration === undefined
      ? { startUpMs: START_UP_MS + (plan.target.kind === 'image' ? plan.target.startupTimeoutMs : 0) }
      : { maxDurationMs: plan.maxDuration }),
  });
  const stopped = (input: Omit<StoppedReportInput, 'command' | 'startedAt' | 'writtenBy'>): Promise<string> =>
    writeStoppedReport(resolve(plan.out), { ...input, command: 'run', startedAt, writtenBy: 'run scope' });
  try {
    return await runInScope(plan, scope);
  } catch (error) {
    if (error instanceof ScopeStopped) {
      // Stopped before the engine could write its reports (profile, keys, embedded reference, image).
      const { code, message, signal, phase } = error.stop;
      const exitCode = signal ? signalExitCode(signal) : 2;
      process.stderr.write(`${new HarnessError(code, message).format()}\n`);
      const path = await stopped({ code, message, ...(signal ? { signal } : {}), phase, exitCode });
      process.stderr.write(`  report: ${path} (phase "${phase}")\n`);
      scope.reported();
      return exitCode;
    }
    // A harness error before the engine wrote its reports (a profile that does not load, a baseline that is
    // not valid, an image that does not start): a CI job that reads report.json learns why, not nothing.
    // It is still printed once, by main(). A usage error is about the command line, not a run: it writes none.
    // Once reporting began, the reporters' own files stand, whatever failed while writing them.
    if (isHarnessError(error) && error.code !== 'USAGE' && !scope.hasReported && scope.phase !== 'reporting') {
      await stopped({
        code: error.code,
        message: runSecrets().redact(error.message),
        ...(error.hint === undefined ? {} : { hint: runSecrets().redact(error.hint) }),
        phase: scope.phase,
        exitCode: 2,
      }).then(
        () => scope.reported(),
        () => {},
      );
    }
    throw error;
  } finally {
    await scope.close();
  }
}

async function runInScope(plan: ReturnType<typeof parseRunArgs>, scope: RunScope): Promise<number> {
  const baseline = plan.baseline === undefined ? undefined : await loadBaseline(plan.baseline);
  const seed = plan.seed ?? randomSeed();
  const outDir = resolve(plan.out);
  // An earlier run's reports in a reused --out would sit beside this run's: removed first (reporters/out-dir.ts).
  const removed = await removePreviousOutputs(outDir);
  if (removed.length > 0) process.stdout.write(`${plan.out}: removed ${removed.join(', ')} left by an earlier run\n`);

  // The engine's vitest loads while the target starts (the embedded sandbox generates keys off-thread).
  preloadVitest();
  let started: StartedTarget | undefined;
  const starting = startTarget(plan.target, seed, outDir, (phase) => scope.enter(phase)).then((target) => (started = target));
  // On every way out; a target still starting when the scope stops is stopped once it is up, unwaited.
  scope.onCleanup('stop the target', async () => {
    if (started) await started.close();
    else void starting.then((target) => target.close(), () => {});
  });
  const target = await scope.race(starting);
  {
    const reporters = createReporters(plan.reporter, {
      outDir,
      stdout: process.stdout,
      env: process.env,
      redact: createRedact(target.profile),
      scrub: createScrub(target.profile),
      artifacts: [],
      invocation: { ...invocationOf(plan.target), ...(plan.openapi === undefined ? {} : { openapi: plan.openapi }), launcher: currentLauncher() },
      ...(plan.har === undefined ? {} : { harPath: plan.har }),
    });
    const summary = await runConformance({
      profile: withOpenapi(target.profile, plan.openapi),
      selection: { only: plan.only, skip: plan.skip },
      seed,
      client: plan.client,
      // The header shows the deadline given; the scope, counting from the command's start, reaches it first
      // and stops the engine through `interrupt` (code DEADLINE, with the phase).
      ...(plan.maxDuration === undefined ? {} : { maxDurationMs: plan.maxDuration }),
      maxConsecutiveFailures: plan.maxConsecutiveFailures,
      concurrency: plan.concurrency,
      strict: plan.strict,
      ...(baseline ? { baseline } : {}),
      reporters,
      ...(target.description ? { targetDescription: target.description } : {}),
      ...(target.jwksListenHost === undefined ? {} : { jwksListenHost: target.jwksListenHost }),
      interrupt: scope.signal,
      onPhase: (phase) => {
        // From preflight on, the engine's own deadline (given or its default) bounds the run.
        if (phase === 'preflight') scope.startedUp();
        return scope.enter(phase);
      },
    });
    scope.reported();
    const exitCode = summary.aborted?.signal ? signalExitCode(summary.aborted.signal) : summary.verdict.exitCode;
    if (summary.aborted && !summary.aborted.signal) {
      const { code, message, hint } = summary.aborted;
      process.stderr.write(`${new HarnessError(code, runSecrets().redact(message), hint ? { hint } : {}).format()}\n`);
    } else if (summary.uniformAnswer) {
      // Not 150 failures: one misconfiguration, with its stable code (src/engine/uniform-answer.ts).
      process.stderr.write(`${new HarnessError('UNIFORM_ANSWER', summary.uniformAnswer.message, { hint: summary.uniformAnswer.hint }).format()}\n`);
    }
    return exitCode;
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
