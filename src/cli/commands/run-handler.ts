/**
 * What `run` does once its flags parsed: start or load the target, run the checks, write the reports. Kept
 * apart from run.ts so that `run --help` loads only the option table, not the engine and the reference.
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/fake.js';
import { loadBaseline, preloadVitest, reportUnstartedRun, resolveSelection, runConformance, type RunAbort } from '../../engine/index.js';
import { runSecrets } from '../../client/index.js';
import { HarnessError, isHarnessError, signalExitCode } from '../../errors.js';
import { openRunScope, ScopeStopped, START_UP_MS, type RunScope } from '../run-scope.js';
import { writeStoppedReport } from '../stopped-report.js';
import { createRedact, createReporters, createScrub, type ReporterContext } from '../../reporters/index.js';
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
  // Made before anything can stop the run: even a run stopped at start-up reports (and reruns) with its seed.
  const seed = plan.seed ?? randomSeed();
  try {
    return await runInScope(plan, scope, seed);
  } catch (error) {
    if (error instanceof ScopeStopped) {
      // Stopped before the engine had a target (profile, keys, embedded reference, image).
      const { code, message, signal, phase } = error.stop;
      process.stderr.write(`${new HarnessError(code, message).format()}\n`);
      await reportUnstarted(plan, seed, { code, message, ...(signal ? { signal } : {}), phase }, startedAt);
      scope.reported();
      return signal ? signalExitCode(signal) : 2;
    }
    // A harness error before the engine wrote its reports (a profile that does not load, a baseline that is
    // not valid, an image that does not start): a CI job that reads junit.xml or report.json learns why, not
    // nothing. Once reporting began, the reporters' own files stand, whatever failed while writing them. A
    // usage error is about the command line, not a run: it writes none. The error line is main()'s.
    if (isHarnessError(error) && error.code !== 'USAGE' && !scope.hasReported && scope.phase !== 'reporting') {
      const redact = (text: string): string => runSecrets().redact(text);
      await reportUnstarted(plan, seed, { code: error.code, message: redact(error.message), ...(error.hint === undefined ? {} : { hint: redact(error.hint) }), phase: scope.phase }, startedAt);
      scope.reported();
    }
    throw error;
  } finally {
    await scope.close();
  }
}

/**
 * Every report the run asked for, of a run stopped before it had a target (engine/unstarted.ts), the
 * console left out (the error line says it). Should those files fail to write, the short report.json of a
 * stopped command (stopped-report.ts) is tried, so that something says why.
 */
async function reportUnstarted(plan: ReturnType<typeof parseRunArgs>, seed: string, aborted: RunAbort & { phase: string }, startedAt: number): Promise<void> {
  const outDir = resolve(plan.out);
  const noSecrets = { secrets: [] };
  try {
    const reporters = createReporters(plan.reporter, reporterContext(plan, outDir, createRedact(noSecrets), createScrub(noSecrets)), { console: false });
    await reportUnstartedRun({
      selection: { only: plan.only, skip: plan.skip },
      seed,
      strict: plan.strict,
      client: plan.client,
      concurrency: plan.concurrency,
      ...(plan.maxDuration === undefined ? {} : { maxDurationMs: plan.maxDuration }),
      maxConsecutiveFailures: plan.maxConsecutiveFailures,
      reporters,
      aborted,
      startedAt,
      ...(plan.target.kind === 'profile' ? {} : { targetDescription: plan.target.kind === 'image' ? `image ${plan.target.image}` : 'embedded reference' }),
    });
    process.stderr.write(`  reports: ${outDir} (phase "${aborted.phase}")\n`);
  } catch (error) {
    process.stderr.write(`  could not write the reports in ${outDir}: ${error instanceof Error ? error.message : String(error)}\n`);
    const exitCode = aborted.signal ? signalExitCode(aborted.signal) : 2;
    await writeStoppedReport(outDir, { command: 'run', ...aborted, exitCode, startedAt, writtenBy: 'run scope' }).catch(() => undefined);
  }
}

/** What every reporter of this run is given: where to write, how to redact, how to print a rerun line. */
function reporterContext(plan: ReturnType<typeof parseRunArgs>, outDir: string, redact: (text: string) => string, scrub: (text: string) => string): ReporterContext {
  return {
    outDir,
    stdout: process.stdout,
    env: process.env,
    redact,
    scrub,
    artifacts: [],
    invocation: { ...invocationOf(plan.target), ...(plan.openapi === undefined ? {} : { openapi: plan.openapi }), launcher: currentLauncher() },
    ...(plan.har === undefined ? {} : { harPath: plan.har }),
  };
}

async function runInScope(plan: ReturnType<typeof parseRunArgs>, scope: RunScope, seed: string): Promise<number> {
  const baseline = plan.baseline === undefined ? undefined : await loadBaseline(plan.baseline);
  const outDir = resolve(plan.out);
  // An earlier run's reports in a reused --out would sit beside this run's: removed first (reporters/out-dir.ts).
  const removed = await removePreviousOutputs(outDir);
  if (removed.length > 0) process.stdout.write(`${plan.out}: removed ${removed.join(', ')} left by an earlier run\n`);

  // The engine's vitest loads while the target starts (the embedded sandbox generates keys off-thread).
  preloadVitest();
  let started: StartedTarget | undefined;
  // On every way out; a target still starting when the scope stops is stopped once it is up, unwaited.
  scope.onCleanup('stop the target', async () => started?.close());
  const target = (started = await scope.race(startTarget(plan.target, seed, outDir, (phase) => scope.enter(phase)), (late) => void late.close()));
  {
    const reporters = createReporters(plan.reporter, reporterContext(plan, outDir, createRedact(target.profile), createScrub(target.profile)));
    const summary = await runConformance({
      profile: withOpenapi(target.profile, plan.openapi),
      selection: { only: plan.only, skip: plan.skip },
      seed,
      client: plan.client,
      // The header shows the deadline given; the scope, counting from the command's start, reaches it first
      // and stops the engine through `interrupt` (code DEADLINE, with the phase).
      ...(plan.maxDuration === undefined ? {} : { maxDurationMs: plan.maxDuration }),
      maxConsecutiveFailures: plan.maxConsecutiveFailures,
      maxOperations: plan.maxOperations,
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
