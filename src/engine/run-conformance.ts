/**
 * runConformance: selection → preflight (does the target answer, which hooks) → JWKS servers → one vitest
 * run: phase 1, every check that leaves the clock alone, all groups at once with `concurrency` checks in
 * flight, then phase 2, the clock-moving checks one at a time → verdict. Reporters see events throughout
 * and the summary at the end, on every exit path: a target that does not answer, the deadline, giving up
 * after consecutive failures, an interruption or a harness error all end with a summary whose `aborted`
 * says why (the unfinished checks errored).
 */
import { profileSecrets, runSecrets, startProfileJwksServers } from '../client/index.js';
import { isHarnessError } from '../errors.js';
import { CATALOGUE_VERSION } from '../requirements.js';
import type { RunContext } from './check-meta.js';
import { RunCollector } from './collector.js';
import { controlsNote, selectionWithControls } from './controls.js';
import { findRootCauses } from './root-causes.js';
import { HOLD_MS, HoldingEmitter, UniformAnswerWatch, uniformVerdict } from './uniform-answer.js';
import { CHECK_TIMEOUT_FACTOR, DEFAULT_MAX_CONSECUTIVE_FAILURES, DEFAULT_RETRY_AFTER_CAP_MS, defaultMaxDurationMs } from './limits.js';
import { joinRunChannel, newRunChannelName } from './run-channel.js';
import { RunGuard } from './run-guard.js';
import { TOOL_NAME, toolVersion } from '../package.js';
import { preflight } from './preflight.js';
import { resolveSelection } from './selection.js';
import type { CheckResult, RunAbort, RunHeader, RunOptions, RunSummary } from './types.js';
import { applyBaseline, computeTotals, computeVerdict, shouldWarnings } from './verdict.js';
import { discoverSuites, suitesToLoad } from './suite-files.js';
import { openSuiteRunner, type SuiteRunner } from './vitest-bridge.js';

export { CHECK_TIMEOUT_FACTOR } from './limits.js';
const DEFAULT_HEARTBEAT_MS = 15_000;

export async function runConformance(options: RunOptions): Promise<RunSummary> {
  const startedAt = Date.now();
  // Refusal checks bring their positive controls (ruling 30): `--only TOK-09` runs TOK-02 too.
  const { requirements, added } = selectionWithControls(resolveSelection(options.selection).requirements, options.selection);
  const maxDurationMs = options.maxDurationMs ?? defaultMaxDurationMs(requirements.length, options.timeoutMs);
  const guard = new RunGuard(options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES);
  guard.follow(options.interrupt);
  guard.startDeadline(maxDurationMs);
  runSecrets().addAll(profileSecrets(options.profile));
  const channelName = newRunChannelName();
  const emitter = new HoldingEmitter(options.reporters);
  // Group lines wait for the first look at the answers, so that "every request got 404" comes first.
  const answers = new UniformAnswerWatch((answer) => {
    if (answer) emitter.emit('onUniformAnswer', answer);
    emitter.release();
  });
  // Workers announce the tokens they obtain (redacted everywhere at once) and each request's fate.
  const channel = joinRunChannel(channelName, (message) => {
    if (message.kind === 'secret') runSecrets().add(message.value);
    else {
      guard.outcome(message.outcome);
      answers.outcome(message.outcome);
    }
  });

  let header = runHeader(options, requirements.map((req) => req.id), startedAt, maxDurationMs);

  const results = new Map<string, CheckResult>();
  const outsideErrors: RunSummary['harnessErrors'] = [];
  const suites = discoverSuites();
  const collector = new RunCollector(requirements, results, emitter, new Set(suites.byGroup.keys()));
  collector.onResult = (result) => guard.checkOutcome(result.state, result.harnessError);
  // At once, not after the run closes: vitest ends the cancelled checks first, and a check it never
  // reported must read "not finished", not "not implemented".
  guard.signal.addEventListener('abort', () => {
    if (guard.reason) collector.abort(guard.reason);
  }, { once: true });

  let runStarted = false;
  try {
    // The deadline and signals hold from here: a preflight against a hung target is bounded too.
    const { capabilities, notes } = await untilAborted(preflight(options.profile, options.timeoutMs), guard.signal);
    header = { ...header, capabilities, notes: [...controlsNote(added), ...notes] };
    emitter.emit('onRunStart', header);
    runStarted = true;
    setTimeout(() => answers.look(), HOLD_MS).unref();
    const jwks = await startProfileJwksServers(options.profile, options.jwksListenHost === undefined ? {} : { host: options.jwksListenHost });
    let runner: SuiteRunner | undefined;
    try {
      const toLoad = suitesToLoad(suites, collector);
      if (toLoad.length > 0 && !guard.signal.aborted) {
        // One vitest, one worker thread, one test file: every group at once with `concurrency` checks in
        // flight, then the clock-moving checks alone (suites/support/group.ts).
        runner = await openSuiteRunner({ entry: suites.entry, form: suites.form, maxConcurrency: Math.max(1, Math.floor(options.concurrency)), testTimeoutMs: options.timeoutMs * CHECK_TIMEOUT_FACTOR });
        const context = { ...runContext(options, capabilities, channelName), ...(jwks.control ? { jwksControl: jwks.control } : {}) };
        const stopHeartbeat = startHeartbeat(collector, emitter, startedAt, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
        try {
          const { unhandled } = await runner.run({ ids: collector.ids(), suites: toLoad, context, signal: guard.signal }, collector);
          if (!guard.signal.aborted) for (const message of unhandled) outsideErrors.push({ code: 'INTERNAL', message });
        } finally {
          stopHeartbeat();
        }
      }
      if (guard.reason) collector.abort(guard.reason);
      collector.finishAll();
    } finally {
      await runner?.close();
      await jwks.close();
    }
  } catch (error) {
    // The target did not answer, a JWKS port was taken, a bug: the run still ends with reports saying why.
    guard.abort(abortOf(error));
  } finally {
    guard.stopDeadline();
    channel.close();
  }
  if (!runStarted) emitter.emit('onRunStart', header);
  const aborted = guard.reason;
  if (aborted) collector.abort(aborted);
  const uniformAnswer = answers.finish();

  const ordered = requirements.map((req) => results.get(req.id)).filter((r): r is CheckResult => r !== undefined);
  const baseline = options.baseline ? applyBaseline(ordered, options.baseline) : undefined;
  const verdict = computeVerdict(ordered, options.strict, outsideErrors.length);
  const summary: RunSummary = {
    header,
    results: ordered,
    totals: computeTotals(ordered),
    verdict: aborted ? { status: 'error', exitCode: 2, reason: `the run stopped before it finished: ${aborted.message}` } : uniformAnswer ? uniformVerdict(uniformAnswer) : verdict,
    warnings: shouldWarnings(ordered, options.strict),
    ...(baseline ? { baseline } : {}),
    durationMs: Date.now() - startedAt,
    harnessErrors: outsideErrors,
    ...(aborted ? { aborted } : {}),
    rootCauses: findRootCauses(ordered),
    ...(uniformAnswer ? { uniformAnswer } : {}),
  };
  emitter.emit('onRunEnd', summary);
  await emitter.flush();
  return summary;
}

/** The run's header before the preflight (capabilities and notes are filled in once it answered). */
function runHeader(options: RunOptions, selectedIds: string[], startedAt: number, maxDurationMs: number): RunHeader {
  return {
    tool: { name: TOOL_NAME, version: toolVersion() },
    catalogueVersion: CATALOGUE_VERSION,
    profileName: options.profile.name,
    target: options.profile.baseUrl,
    ...(options.targetDescription ? { targetDescription: options.targetDescription } : {}),
    seed: options.seed,
    date: new Date(startedAt).toISOString(),
    selection: { only: options.selection.only, skip: options.selection.skip, selected: selectedIds.length },
    strict: options.strict,
    settings: {
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      maxDurationMs,
      maxConsecutiveFailures: options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES,
      retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
    },
    capabilities: { clock: false, runs: false },
    notes: [],
    selectedIds,
  };
}

/** A harness error keeps its code, message and hint; anything else is a harness bug. */
function abortOf(error: unknown): RunAbort {
  if (isHarnessError(error)) return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  return { code: 'INTERNAL', message: `the run failed: ${error instanceof Error ? error.message : String(error)}` };
}

/** Rejects as soon as the run is stopped (the guard's reason is then the run's). */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw new Error('stopped');
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  try {
    return await Promise.race([promise, stopped]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function runContext(options: RunOptions, capabilities: RunContext['capabilities'], channel: string): RunContext {
  // The rate limit is for the whole run, and the run's one suite worker has one client that carries it.
  return {
    runId: channel,
    profile: options.profile,
    client: {
      timeoutMs: options.timeoutMs,
      ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
    },
    channel,
    seed: options.seed,
    capabilities,
  };
}

function startHeartbeat(collector: RunCollector, emitter: HoldingEmitter, runStartedAt: number, intervalMs: number): () => void {
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - collector.lastProgressAt < intervalMs) return;
    const event = collector.heartbeat(now, runStartedAt);
    if (event.running.length === 0) return;
    collector.lastProgressAt = now;
    emitter.emit('onHeartbeat', event);
  }, Math.max(250, Math.floor(intervalMs / 2)));
  timer.unref();
  return () => clearInterval(timer);
}

