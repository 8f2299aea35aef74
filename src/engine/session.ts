/**
 * The engine session: the one place that runs the suites against a target. A run is selection → run guard
 * (deadline, give-up, interruption) → preflight (does the target answer, which hooks) → JWKS servers → one
 * vitest run (phase 1, every check that leaves the clock alone, all groups at once with `concurrency` checks
 * in flight; phase 2, the clock-moving checks one at a time) → verdict. Reporters see events throughout and
 * the summary at the end, on every exit path: a target that does not answer, the deadline, giving up after
 * consecutive failures, an interruption or a harness error all end with a summary whose `aborted` says why.
 *
 * `run` opens a session for one run (runConformance); the fault and variant runner opens one per worker
 * process and runs target after target through it: vitest, its worker thread and the modules it imported
 * are created once, which is most of the cost of a short run, and every run gets the same rate limit,
 * Retry-After cap and run channel as `run` gives it.
 */
import { profileSecrets, runSecrets, startProfileJwksServers } from '../client/index.js';
import type { RunContext } from './check-meta.js';
import { RunCollector } from './collector.js';
import { operationsCostNote } from './operation-keys.js';
import { refuseTooManyOperations } from './operation-bound.js';
import { controlsNote, keepPulledInOperations, selectionWithControls } from './controls.js';
import { findRootCauses } from './root-causes.js';
import { groupAbsentOperations } from './absent-operations.js';
import { applyScope, declareScope, scopedVerdict, type DeclaredScope } from './scope.js';
import { HOLD_FROM_START_MS, HoldingEmitter, UniformAnswerWatch, uniformVerdict } from './uniform-answer.js';
import { CHECK_TIMEOUT_FACTOR, DEFAULT_MAX_CONSECUTIVE_FAILURES, DEFAULT_MAX_OPERATIONS, defaultMaxDurationMs } from './limits.js';
import { loadOperationPlan, operationsNote, runOperations } from './operations.js';
import { preflight } from './preflight.js';
import { clockMovedSince, type ClockReading } from './clock-watch.js';
import { joinRunChannel, newRunChannelName } from './run-channel.js';
import { RunGuard } from './run-guard.js';
import { applyBaseline } from './baseline.js';
import { abortOf, runHeader, startHeartbeat } from './session-parts.js';
import { untilStopped } from '../stop/race.js';
import type { EnginePhase, SessionRunOptions, SessionSettings } from './session-options.js';
import { operationSelector, resolveSelection } from './selection.js';
import { discoverSuites, suitesToLoad, type SuiteFiles } from './suite-files.js';
import type { CheckResult, OperationRef, RunSummary } from './types.js';
import { operationRef } from '../openapi/index.js';
import { computeTotals } from './counts.js';
import { abortedVerdict, computeVerdict, shouldWarnings } from './verdict.js';
import { openSuiteRunner, type SuiteRunner } from './vitest-bridge.js';

export interface EngineSession {
  run(options: SessionRunOptions): Promise<RunSummary>;
  /** Ends the suite thread and vitest; the session runs nothing after. */
  close(): Promise<void>;
}

export function openEngineSession(settings: SessionSettings): EngineSession {
  const suites = discoverSuites();
  // vitest is created on the first run that has checks to run: a target that does not answer never needs it.
  let runner: Promise<SuiteRunner> | undefined;
  const suiteRunner = (): Promise<SuiteRunner> => {
    runner ??= openSuiteRunner({
      entry: suites.entry,
      form: suites.form,
      testTimeoutMs: settings.client.timeoutMs * CHECK_TIMEOUT_FACTOR,
    });
    return runner;
  };
  return {
    run: (options) => sessionRun(settings, suites, suiteRunner, options),
    async close() {
      const opened = runner;
      runner = undefined;
      if (opened) await (await opened).close();
    },
  };
}

async function sessionRun(settings: SessionSettings, suites: SuiteFiles, suiteRunner: () => Promise<SuiteRunner>, options: SessionRunOptions): Promise<RunSummary> {
  const startedAt = Date.now();
  // Refusal checks bring their positive controls (ruling 30): `--only TOK-09` runs TOK-02 too.
  const { requirements, pulledIn } = selectionWithControls(resolveSelection(options.selection).requirements, options.selection);
  const timeoutMs = settings.client.timeoutMs;
  let maxDurationMs = options.maxDurationMs ?? defaultMaxDurationMs(requirements.length, timeoutMs);
  const maxConsecutiveFailures = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  const guard = new RunGuard(maxConsecutiveFailures, options.interrupt);
  // One deadline per run: the caller's when its signal carries it (the CLI's run scope, from the command's start).
  const ownDeadline = !(options.deadlineByCaller && options.maxDurationMs !== undefined);
  if (ownDeadline) guard.startDeadline(maxDurationMs);
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
    else if (message.kind === 'outcome') {
      guard.outcome(message.outcome);
      answers.outcome(message.outcome);
    }
  });

  let header = runHeader({ ...options, settings, maxDurationMs, maxConsecutiveFailures }, requirements.map((req) => req.id), startedAt, pulledIn);
  const results = new Map<string, CheckResult>();
  const outsideErrors: RunSummary['harnessErrors'] = [];
  const collector = new RunCollector(requirements, results, emitter, new Set(suites.byGroup.keys()), new Map(pulledIn.map((check) => [check.id, check.controlOf])));
  collector.onResult = (result) => guard.checkOutcome(result.state, result.harnessError);
  // At once, not after the run closes: vitest ends the cancelled checks first, and a check it never
  // reported must read "not finished", not "not implemented".
  guard.signal.addEventListener('abort', () => {
    if (guard.reason) collector.abort(guard.reason);
    // The checks still waiting for a slot leave instead of starting (vitest's cancel does not reach them all).
    channel.post({ kind: 'stop', code: guard.reason?.code ?? 'INTERRUPTED', reason: guard.reason?.message ?? 'the run stopped' });
  }, { once: true });

  let runStarted = false;
  let clockAt: ClockReading | undefined;
  // The profile's "scope" matched against the plan, and the operations the run calls.
  let declared: DeclaredScope | undefined;
  let called: OperationRef[] = [];
  // The phase a stop happened in, for the report when the reason does not name one (the engine's deadline).
  let phase: EnginePhase = 'preflight';
  const enter = (next: EnginePhase): Promise<void> => {
    phase = next;
    return Promise.resolve(options.onPhase?.(next));
  };
  try {
    // The deadline and signals hold from here: a preflight against a hung target is bounded too.
    await untilStopped(enter('preflight'), guard.signal);
    const checked = await untilStopped(preflight(options.profile, timeoutMs), guard.signal);
    const { capabilities, notes } = checked;
    clockAt = checked.clockAt;
    // The description is read once the target answers (it may be served there); a bad one stops the run (exit 2).
    const loaded = await untilStopped(loadOperationPlan(options.profile, settings.client, options.allowOperations), guard.signal);
    // The profile's scope leaves its not-implemented operations out of the plan: they are never called.
    declared = declareScope(loaded, options.profile.scope);
    const operations = declared?.plan ?? loaded;
    called = (operations?.called ?? []).map((op) => operationRef({ method: op.method, path: op.path, operationId: op.operationId, sentPath: op.sentPath }));
    // Per-operation requirements expect one result per called operation (ruling 34), as --only/--skip keep them.
    // A pulled-in per-operation control (OPS-18) on the operations of the refusal checks it controls.
    const keepOperation = keepPulledInOperations(operationSelector(options.selection), pulledIn);
    refuseTooManyOperations(operations?.called, requirements, keepOperation, options.maxOperations ?? DEFAULT_MAX_OPERATIONS);
    collector.expandOperations(operations?.called, keepOperation);
    const keys = collector.keys();
    const described = runOperations(operations);
    // The default deadline was reckoned before the operations were known: now one result per called
    // operation counts, and each operation raises the ceiling (limits.ts). A given --max-duration stands.
    if (options.maxDurationMs === undefined && (operations?.called.length ?? 0) > 0) {
      maxDurationMs = defaultMaxDurationMs(keys.length, timeoutMs, operations!.called.length);
      if (ownDeadline) guard.startDeadline(Math.max(0, maxDurationMs - (Date.now() - startedAt)), maxDurationMs);
    }
    header = {
      ...header,
      settings: { ...header.settings, maxDurationMs },
      capabilities,
      notes: [...controlsNote(pulledIn), ...notes, ...operationsNote(operations), ...operationsCostNote(operations?.called, requirements)],
      selection: { ...header.selection, selected: keys.length },
      selectedIds: keys,
      ...(described ? { operations: described } : {}),
    };
    emitter.emit('onRunStart', header);
    runStarted = true;
    setTimeout(() => answers.look(), HOLD_FROM_START_MS).unref();
    const jwks = await startProfileJwksServers(options.profile, options.jwksListenHost === undefined ? {} : { host: options.jwksListenHost });
    try {
      const toLoad = suitesToLoad(suites, collector);
      if (toLoad.length > 0 && !guard.signal.aborted) {
        await untilStopped(enter('worker start'), guard.signal);
        const runner = await untilStopped(suiteRunner(), guard.signal);
        await untilStopped(enter('checks'), guard.signal);
        const context: RunContext = {
          runId: channelName,
          profile: options.profile,
          // The rate limit is for the whole run, and the run's one suite worker has one client that carries it.
          client: settings.client,
          channel: channelName,
          concurrency: Math.max(1, Math.floor(settings.concurrency)),
          checkTimeoutMs: settings.client.timeoutMs * CHECK_TIMEOUT_FACTOR,
          passedExchanges: options.passedExchanges ?? (options.reporters.length === 0 || options.reporters.some((reporter) => reporter.readsPassedExchanges !== false)),
          seed: options.seed,
          capabilities,
          ...(jwks.control ? { jwksControl: jwks.control } : {}),
          ...(operations ? { operations } : {}),
        };
        const stopHeartbeat = startHeartbeat(collector, emitter, startedAt, options.heartbeatMs);
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
  const aborted = guard.reason && { ...guard.reason, phase: guard.reason.phase ?? phase };
  if (aborted) collector.abort(aborted);
  const uniformAnswer = answers.finish();
  // On every way out (deadline and interrupts included): a clock-moving check that started may have moved it.
  const clockMoved = clockAt && runStarted && requirements.some((req) => req.movesClock) ? await clockMovedSince(options.profile, clockAt) : undefined;

  // Every check of the run is in the results, the pulled-in controls too: the counts agree with the header's.
  const collected = collector.keys().map((key) => results.get(key)).filter((r): r is CheckResult => r !== undefined);
  // The scope first (an operation --partial finds not implemented is skipped), then everything on its results.
  const { results: ordered, scope } = aborted ? { results: collected, scope: undefined } : applyScope(collected, { partial: options.partial === true, ...(declared ? { declared } : {}), called });
  const rootCauses = findRootCauses(ordered);
  const absentOperations = groupAbsentOperations(ordered, rootCauses);
  const baseline = options.baseline ? applyBaseline(ordered, options.baseline, rootCauses) : undefined;
  const verdict = scopedVerdict(computeVerdict(ordered, options.strict, outsideErrors.length), scope);
  const summary: RunSummary = {
    header,
    results: ordered,
    totals: computeTotals(ordered, options.strict),
    verdict: aborted ? abortedVerdict(aborted) : uniformAnswer ? uniformVerdict(uniformAnswer) : verdict,
    warnings: shouldWarnings(ordered, options.strict),
    ...(baseline ? { baseline } : {}),
    durationMs: Date.now() - startedAt,
    harnessErrors: outsideErrors,
    ...(aborted ? { aborted } : {}),
    rootCauses,
    ...(uniformAnswer ? { uniformAnswer } : {}),
    ...(clockMoved ? { clockMoved } : {}),
    ...(scope ? { scope } : {}),
    ...(absentOperations.length > 0 ? { absentOperations } : {}),
  };
  // Reporting is not bounded by the deadline (it has passed when a deadline stopped the run); the CLI's
  // supervisor bounds it from outside.
  await Promise.resolve(options.onPhase?.('reporting')).catch(() => {});
  emitter.emit('onRunEnd', summary);
  await emitter.flush();
  return summary;
}
