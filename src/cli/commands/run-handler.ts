/**
 * What `run` does once its flags parsed: start or load the target, run the checks, write the reports. Kept
 * apart from run.ts so that `run --help` loads only the option table, not the engine and the reference.
 */
import { resolve } from 'node:path';
import { randomSeed } from '../../data/seed.js';
import { resolveSelection } from '../../engine/selection.js';
import type { RunAbort } from '../../engine/types.js';
import { runSecrets } from '../../client/secret-registry.js';
import { HarnessError, isHarnessError } from '../../errors.js';
import { openRunScope, type RunScope } from '../../stop/scope.js';
import { untilStopped } from '../../stop/race.js';
import { Stopped, stopExitCode } from '../../stop/reason.js';
import { writeStoppedReport } from '../../stop/stopped-report.js';
import type { ReporterContext } from '../../reporters/index.js';
import { removePreviousOutputs } from '../../reporters/out-dir.js';
import type { RunInvocation } from '../../reporters/rerun.js';
import { parseRunArgs, type RunOptions, type TargetPlan } from './run-options.js';
import { startTarget, type StartedTarget, type TargetPhase } from './run-target.js';
import { prepareAttestation, withJsonReporter, type PreparedAttestation } from './run-attest.js';
import { currentLauncher } from '../launcher.js';
import type { ResolvedProfile } from '../../profile/types.js';

/**
 * What a run needs once its target is starting: the engine (and through it the suites), the reporters and
 * the run plan's lines. Imported when the run's first phase begins, not with this module:
 * the process's start to that phase stays the CLI's own (flags, selection, scope), and these load while the
 * target's start waits on its socket, its key work and its files. Loaded once per process.
 */
let runParts: ReturnType<typeof importRunParts> | undefined;

function importRunParts() {
  return Promise.all([
    import('../../engine/index.js'),
    import('../../reporters/index.js'),
    import('../../openapi/index.js'),
    import('./run-plan.js'),
  ]).then(([engine, reporters, openapi, plan]) => ({
    preloadSuites: engine.preloadSuites,
    reportUnstartedRun: engine.reportUnstartedRun,
    runConformance: engine.runConformance,
    createRedact: reporters.createRedact,
    createReporters: reporters.createReporters,
    createScrub: reporters.createScrub,
    isUrlSource: openapi.isUrlSource,
    renderRunPlan: plan.renderRunPlan,
    runPlanLines: plan.runPlanLines,
  }));
}

/** The run's parts, their import started on first call; a failed import is the caller's error when awaited. */
function loadRunParts(): ReturnType<typeof importRunParts> {
  runParts ??= importRunParts();
  return runParts;
}

export async function runHandler(options: RunOptions): Promise<number> {
  const startedAt = Date.now();
  const plan = parseRunArgs(options);
  // Usage problems surface before anything starts.
  resolveSelection({ only: plan.only, skip: plan.skip });
  // --attest: the signing key read (or a keyless identity found) before anything starts.
  const attestation = await prepareAttestation(plan, process.env);
  // From here the deadline and the signals hold, in every phase (stop/scope.ts); without --max-duration the
  // start-up alone is bounded (an image adds the time it may take to start).
  const scope = openRunScope({
    what: 'the run',
    reportDir: resolve(plan.out),
    ...(plan.maxDuration === undefined
      ? { startUp: { extraMs: plan.target.kind === 'image' ? plan.target.startupTimeoutMs : 0 } }
      : { maxDurationMs: plan.maxDuration }),
  });
  // Made before anything can stop the run: even a run stopped at start-up reports (and reruns) with its seed.
  const seed = plan.seed ?? randomSeed();
  try {
    return await runInScope(plan, scope, seed, attestation);
  } catch (error) {
    if (error instanceof Stopped) {
      // Stopped before the engine had a target (profile, keys, embedded reference, image).
      const reason = { ...error.reason, phase: error.reason.phase ?? scope.phase };
      process.stderr.write(`${error.format()}\n`);
      await reportUnstarted(plan, seed, reason, startedAt);
      scope.reported();
      return stopExitCode(reason);
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
    const { createRedact, createReporters, createScrub, reportUnstartedRun } = await loadRunParts();
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
    await writeStoppedReport(outDir, { command: 'run', ...aborted, exitCode: stopExitCode(aborted), startedAt, writtenBy: 'run scope' }).catch(() => undefined);
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

async function runInScope(plan: ReturnType<typeof parseRunArgs>, scope: RunScope, seed: string, attestation: PreparedAttestation | undefined): Promise<number> {
  if (plan.plan) return printPlan(plan, scope, seed);
  // A baseline that is not valid is a usage problem: told before anything starts, as before.
  const baseline = plan.baseline === undefined ? undefined : await (await import('../../engine/baseline.js')).loadBaseline(plan.baseline);
  const outDir = resolve(plan.out);
  // An earlier run's reports in a reused --out would sit beside this run's: removed first (reporters/out-dir.ts).
  const removed = await removePreviousOutputs(outDir);
  if (removed.length > 0) process.stdout.write(`${plan.out}: removed ${removed.join(', ')} left by an earlier run\n`);

  const target = await startedTarget(plan, scope, seed, outDir, (parts) => {
    // The suites' scheduler and modules load while the target starts (the embedded sandbox makes keys off-thread).
    parts.preloadSuites();
  });
  const { createRedact, createReporters, createScrub, isUrlSource, runConformance } = await loadRunParts();
  {
    const profile = withOpenapi(target.profile, plan.openapi, isUrlSource);
    const context = reporterContext(plan, outDir, createRedact(target.profile), createScrub(target.profile));
    const reporters = createReporters(
      withJsonReporter(plan.reporter, attestation !== undefined),
      attestation === undefined ? context : { ...context, attestSubject: attestation.subjectFor(profile, target.imageId) },
    );
    const summary = await runConformance({
      profile,
      selection: { only: plan.only, skip: plan.skip },
      seed,
      client: plan.client,
      ...(plan.allowOperation.length > 0 ? { allowOperations: plan.allowOperation } : {}),
      ...(plan.partial ? { partial: true } : {}),
      // The header shows the deadline given; it is the scope's, counted from the command's start, and stops
      // the engine through `interrupt` (code DEADLINE, with the phase): the engine arms none of its own.
      ...(plan.maxDuration === undefined ? {} : { maxDurationMs: plan.maxDuration, deadlineByCaller: true }),
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
    let exitCode: number = summary.aborted?.signal ? stopExitCode(summary.aborted) : summary.verdict.exitCode;
    // An interrupted run is not attested: the user stopped it.
    if (attestation !== undefined && !summary.aborted?.signal) exitCode = await attestation.write({ outDir, profile, exitCode });
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

/**
 * `run --plan`: the target started or loaded (the embedded reference serves its own description), the
 * run's plan printed, nothing sent to any operation, no report written; exit 0.
 */
async function printPlan(plan: ReturnType<typeof parseRunArgs>, scope: RunScope, seed: string): Promise<number> {
  const target = await startedTarget(plan, scope, seed, resolve(plan.out));
  const { isUrlSource, renderRunPlan, runPlanLines } = await loadRunParts();
  const profile = withOpenapi(target.profile, plan.openapi, isUrlSource);
  const { plan: operations, lines } = await untilStopped(runPlanLines(profile, plan.client, plan.allowOperation), scope.signal);
  process.stdout.write(renderRunPlan(profile, operations, lines));
  scope.reported();
  return 0;
}

/**
 * The run's target started (stop/scope.ts names its phases), the cleanup that stops it registered first. The
 * run's parts begin to load with the target's first phase, and `whileStarting` is given them while it starts.
 */
async function startedTarget(
  plan: ReturnType<typeof parseRunArgs>,
  scope: RunScope,
  seed: string,
  outDir: string,
  whileStarting?: (parts: Awaited<ReturnType<typeof loadRunParts>>) => void,
): Promise<StartedTarget> {
  let started: StartedTarget | undefined;
  // On every way out; a target still starting when the scope stops is stopped once it is up, unwaited.
  scope.onCleanup('stop the target', async () => started?.close());
  const onPhase = (phase: TargetPhase): Promise<void> => {
    if (runParts === undefined) {
      // Handled here so that a failed import is not unhandled while the target starts; it fails the run
      // where the parts are awaited.
      void loadRunParts().then(whileStarting, () => undefined);
    }
    return scope.enter(phase);
  };
  started = await untilStopped(startTarget(plan.target, seed, outDir, onPhase), scope.signal, (late) => void late.close());
  return started;
}

/** `--openapi` replaces the profile's `"openapi"`: a file relative to the current directory, or a URL. */
function withOpenapi(profile: ResolvedProfile, openapi: string | undefined, isUrlSource: (source: string) => boolean): ResolvedProfile {
  if (openapi === undefined) return profile;
  return { ...profile, openapi: isUrlSource(openapi) ? openapi : resolve(openapi) };
}

/** What a failed check's rerun line repeats of this run's target (reporters/rerun.ts). */
function invocationOf(target: TargetPlan): RunInvocation {
  if (target.kind === 'profile') return { kind: 'profile', path: target.path };
  if (target.kind === 'image') return { kind: 'image', image: target.image };
  return { kind: 'embedded', faults: target.faults };
}
