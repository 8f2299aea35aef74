/**
 * runConformance: selection → preflight (does the target answer, which hooks) → JWKS servers → phase 1
 * (every check that leaves the clock alone; `concurrency` checks in flight) → phase 2 (clock-moving checks,
 * one at a time) → verdict. Reporters see events throughout and the summary at the end.
 */
import { startProfileJwksServers } from '../client/index.js';
import { CATALOGUE_VERSION } from '../requirements.js';
import type { RunContext } from './check-meta.js';
import { PhaseCollector } from './collector.js';
import { Emitter } from './emitter.js';
import { TOOL_NAME, toolVersion } from './package-root.js';
import { preflight } from './preflight.js';
import { resolveSelection } from './selection.js';
import type { CheckResult, RunHeader, RunOptions, RunSummary } from './types.js';
import { applyBaseline, computeTotals, computeVerdict, shouldWarnings } from './verdict.js';
import { discoverSuites, openSuiteRunner, type SuiteRunner } from './vitest-bridge.js';

/** A check makes many requests (a pagination walk, a 25-way race): its limit is this many request timeouts. */
export const CHECK_TIMEOUT_FACTOR = 12;
const DEFAULT_HEARTBEAT_MS = 15_000;

export async function runConformance(options: RunOptions): Promise<RunSummary> {
  const startedAt = Date.now();
  const { requirements } = resolveSelection(options.selection);
  const { capabilities, notes } = await preflight(options.profile, options.timeoutMs);

  const header: RunHeader = {
    tool: { name: TOOL_NAME, version: toolVersion() },
    catalogueVersion: CATALOGUE_VERSION,
    profileName: options.profile.name,
    target: options.profile.baseUrl,
    ...(options.targetDescription ? { targetDescription: options.targetDescription } : {}),
    seed: options.seed,
    date: new Date(startedAt).toISOString(),
    selection: { only: options.selection.only, skip: options.selection.skip, selected: requirements.length },
    strict: options.strict,
    settings: { timeoutMs: options.timeoutMs, concurrency: options.concurrency, ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) },
    capabilities,
    notes,
    selectedIds: requirements.map((req) => req.id),
  };

  const emitter = new Emitter(options.reporters);
  emitter.emit('onRunStart', header);

  const results = new Map<string, CheckResult>();
  const outsideErrors: RunSummary['harnessErrors'] = [];
  const { form, byGroup: suites } = discoverSuites();
  const suiteGroups = new Set(suites.keys());
  const jwks = await startProfileJwksServers(options.profile, options.jwksListenHost === undefined ? {} : { host: options.jwksListenHost });
  let runner: SuiteRunner | undefined;
  try {
    const phases: Array<{ collector: PhaseCollector; parallel: boolean }> = [];
    const main = requirements.filter((req) => !req.movesClock);
    const clock = requirements.filter((req) => req.movesClock);
    const concurrency = Math.max(1, Math.floor(options.concurrency));
    if (main.length > 0) phases.push({ collector: new PhaseCollector('main', main, results, emitter, suiteGroups), parallel: true });
    if (clock.length > 0) phases.push({ collector: new PhaseCollector('clock', clock, results, emitter, suiteGroups), parallel: false });

    for (const { collector, parallel } of phases) {
      const groups = collector.runnableGroups();
      if (groups.length > 0) {
        const files = groups.map((group) => suites.get(group)!);
        // One vitest and one worker thread for both phases: the suites' concurrent groups keep
        // `concurrency` checks in flight, so waiting checks overlap without a second thread's memory and
        // start-up. The clock phase runs its files one after another in that worker.
        runner ??= await openSuiteRunner({
          files: [...new Set(phases.flatMap((phase) => phase.collector.runnableGroups()))].map((group) => suites.get(group)!),
          form,
          maxWorkers: 1,
          maxConcurrency: concurrency,
          testTimeoutMs: options.timeoutMs * CHECK_TIMEOUT_FACTOR,
        });
        const stopHeartbeat = startHeartbeat(collector, emitter, startedAt, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
        try {
          const { unhandled } = await runner.runPhase({ ids: collector.ids(), files, fileParallelism: parallel, context: runContext(options, capabilities) }, collector);
          for (const message of unhandled) outsideErrors.push({ code: 'INTERNAL', message: `${collector.phase} phase: ${message}` });
        } finally {
          stopHeartbeat();
        }
      }
      collector.finishAll();
    }
  } finally {
    await runner?.close();
    await jwks.close();
  }

  const ordered = requirements.map((req) => results.get(req.id)).filter((r): r is CheckResult => r !== undefined);
  const baseline = options.baseline ? applyBaseline(ordered, options.baseline) : undefined;
  const summary: RunSummary = {
    header,
    results: ordered,
    totals: computeTotals(ordered),
    verdict: computeVerdict(ordered, options.strict, outsideErrors.length),
    warnings: shouldWarnings(ordered, options.strict),
    ...(baseline ? { baseline } : {}),
    durationMs: Date.now() - startedAt,
    harnessErrors: outsideErrors,
  };
  emitter.emit('onRunEnd', summary);
  await emitter.flush();
  return summary;
}

function runContext(options: RunOptions, capabilities: RunContext['capabilities']): RunContext {
  // The rate limit is for the whole run, and the run's one suite worker has one client that carries it.
  return {
    profile: options.profile,
    client: { timeoutMs: options.timeoutMs, ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) },
    seed: options.seed,
    capabilities,
  };
}

function startHeartbeat(collector: PhaseCollector, emitter: Emitter, runStartedAt: number, intervalMs: number): () => void {
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

