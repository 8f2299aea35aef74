/**
 * `runLoad`: one load run from options to report. Opens the target (or the embedded reference), builds the
 * scenario's request source, drives the schedule, and writes the JSON and HTML reports.
 */
import { DEFAULT_ERROR_THRESHOLD, LOAD_DEFAULTS, STRICT_THRESHOLDS } from './constants.js';
import { createLoadTransport } from './load-transport.js';
import { profileSecrets, redact, startProfileJwksServers } from '../client/index.js';
import { ErrorSamples } from './error-samples.js';
import { HarnessError } from '../errors.js';
import { corpusProblem, readCorpus } from './corpus.js';
import { drive, type DriveResult } from './driver.js';
import { runWithWorkers, usableWorkers } from './run-workers.js';
import { workersAvailable } from './workers.js';
import { interruption } from './interruption.js';
import { untilStopped } from '../stop/race.js';
import { Stopped } from '../stop/reason.js';
import { openStop } from '../stop/source.js';
import { stopMs } from '../stop/timings.js';
import { buildReport, driverLoad, type LoadReport, type LoadRunConfig } from './report.js';
import { writeReport, type WrittenReport } from './report-writer.js';
import { aborting, DEFAULT_ABORT_AFTER_MS, thresholdWatch } from './abort.js';
import { perSecond } from './per-second.js';
import { LoadStream } from './stream.js';
import { ArrivalSchedule, type ScheduleSpec } from './schedule.js';
import { performance } from 'node:perf_hooks';
import { makeSource } from './scenario-source.js';
import { LoadStats } from './stats.js';
import { LoadMetrics } from './metrics.js';
import { startMetricsServer } from './metrics-server.js';
import { openTarget, type LoadTarget } from './target.js';
import { parseThreshold } from './thresholds.js';
import { describeClock, targetClockOffset } from './target-clock.js';

import type { LoadOptions, LoadPhase } from './load-run-options.js';
export type { LoadOptions, LoadPhase } from './load-run-options.js';

export interface LoadOutcome {
  report: LoadReport;
  written?: WrittenReport;
  /** Outputs that could not be written (a report file, `--stream`): each an OUTPUT_UNWRITABLE; exit 2 when any. */
  outputFailures: HarnessError[];
}

function withDefaultErrorThreshold(expressions: string[]): string[] {
  const namesErrors = expressions.some((expression) => {
    const metric = parseThreshold(expression).metric;
    return metric === 'errors';
  });
  return namesErrors ? expressions : [...expressions, DEFAULT_ERROR_THRESHOLD];
}

function usage(message: string, field: string, hint?: string): HarnessError {
  return new HarnessError('LOAD_CONFIG', message, { field, hint });
}

function buildSchedule(options: LoadOptions): { schedule: ArrivalSchedule; spec: ScheduleSpec; peakRate: number; capped: boolean } {
  const hasRate = options.rate !== undefined || options.durationMs !== undefined;
  if (options.stages && hasRate) throw usage('give either --rate with --duration, or --stages, not both', '--stages');
  let spec: ScheduleSpec;
  let peakRate: number;
  if (options.stages) {
    spec = { startRate: 0, stages: options.stages };
    peakRate = Math.max(...options.stages.map((s) => s.target));
  } else {
    if (options.rate === undefined || options.durationMs === undefined) {
      throw usage('a load run needs a rate and a duration', options.rate === undefined ? '--rate' : '--duration', 'e.g. --rate 200 --duration 30s, or --stages 30s:100,1m:500');
    }
    spec = { startRate: options.rate, stages: [{ durationMs: options.durationMs, target: options.rate }] };
    peakRate = options.rate;
  }
  const uncapped = new ArrivalSchedule(spec).total;
  const schedule = new ArrivalSchedule({ ...spec, maxRequests: options.maxRequests });
  if (schedule.total === 0) throw usage('the schedule holds no request (rate × duration < 1)', '--rate');
  return { schedule, spec: { ...spec, maxRequests: options.maxRequests }, peakRate, capped: schedule.total < uncapped };
}

export async function runLoad(options: LoadOptions): Promise<LoadOutcome> {
  const startedAt = Date.now();
  const scenario = options.scenario ?? 'webhook-hmac';
  const thresholdExprs = withDefaultErrorThreshold([...(options.thresholds ?? []), ...(options.strict ? STRICT_THRESHOLDS : [])]);
  const thresholds = thresholdExprs.map(parseThreshold);
  const { schedule, spec, peakRate, capped } = buildSchedule(options);
  const connections = options.connections ?? LOAD_DEFAULTS.connections;
  const maxInFlight = options.maxInFlight ?? LOAD_DEFAULTS.maxInFlight;
  const timeoutMs = options.timeoutMs ?? LOAD_DEFAULTS.timeoutMs;
  // More threads than connections or requests in flight would leave one with none; from the TypeScript
  // sources (tests) there is no compiled worker file, and the run stays on this thread.
  const workers = workersAvailable() ? usableWorkers(options.workers ?? 1, connections, maxInFlight) : 1;
  if (options.corpusPath !== undefined && scenario !== 'webhook-jwt') throw usage('--corpus is for --scenario webhook-jwt', '--corpus');
  const abortPolicy = { all: options.abortOnFail ?? false, graceMs: options.abortAfterMs ?? DEFAULT_ABORT_AFTER_MS };
  const abortingThresholds = [...aborting(thresholds, abortPolicy)];
  if (options.abortAfterMs !== undefined && abortingThresholds.length === 0) {
    throw usage('--abort-after is the grace period of thresholds that abort: give --abort-on-fail, or a threshold ending in :abort', '--abort-after');
  }

  const corpus = options.corpusPath !== undefined ? await readCorpus(options.corpusPath) : undefined;
  if (corpus) {
    const problem = corpusProblem(corpus, { now: Date.now() / 1000, durationSeconds: schedule.durationMs / 1000, requests: schedule.total, marginSeconds: 5 });
    if (problem) throw new HarnessError('CORPUS_INVALID', problem, { field: '--corpus' });
  }
  const config: LoadRunConfig = {
    scenario,
    ...(options.stages ? { stages: options.stages } : { rate: options.rate, durationMs: options.durationMs }),
    connections,
    maxInFlight,
    ...(options.maxRequests !== undefined ? { maxRequests: options.maxRequests } : {}),
    ...(scenario.startsWith('webhook') ? { bodyBytes: options.bodyBytes ?? LOAD_DEFAULTS.bodyBytes } : {}),
    timeoutMs,
    thresholds: thresholdExprs,
    ...(abortingThresholds.length > 0 ? { abort: { all: abortPolicy.all, graceMs: abortPolicy.graceMs, thresholds: abortingThresholds } } : {}),
  };
  const outDir = options.outDir === undefined ? 'reports' : options.outDir;
  const finish = async (report: LoadReport): Promise<LoadOutcome> => {
    const written = outDir === null ? undefined : await writeReport(report, outDir);
    // The stream's own failure, if a write of it failed during the run (it stopped; the reports did not).
    stream?.close();
    return { report, written, outputFailures: [...(stream?.failure ? [stream.failure] : []), ...(written?.failures ?? [])] };
  };

  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async (): Promise<void> => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  };
  let reportTarget: LoadReport['target'] = { name: options.profile?.name ?? '(not started)', baseUrl: options.profile?.baseUrl ?? '', embedded: !options.profile && !options.profilePath };
  const metrics = options.metricsListen ? new LoadMetrics(scenario) : undefined;
  let stream: LoadStream | undefined;
  /** The set-up step the run is in, for the report of a run stopped there. */
  let step: Exclude<LoadPhase, 'load'> | undefined;
  try {
    // Opened before the target starts: a bad path or a taken port is a usage error (exit 2) before any
    // request is sent.
    if (options.streamPath !== undefined) {
      const opened = LoadStream.open(options.streamPath);
      stream = opened;
      cleanups.push(async () => opened.close());
    }
    if (metrics && options.metricsListen) {
      const server = await startMetricsServer(options.metricsListen, metrics);
      cleanups.push(() => server.close());
      options.onMetricsListening?.(server.url, server.exposure);
    }
    try {
      const enter = (phase: LoadPhase): Promise<void> => {
        if (phase !== 'load') step = phase;
        return untilStopped(Promise.resolve(options.onPhase?.(phase)).catch(() => {}), options.signal);
      };
      let target: LoadTarget;
      await enter(options.profile || options.profilePath !== undefined ? 'profile' : 'embedded reference');
      if (options.profile) target = { profile: options.profile, embedded: false, where: 'profile', close: async () => {} };
      // A signal while the embedded reference starts: its process is stopped once it is up.
      else target = await untilStopped(openTarget({ profilePath: options.profilePath, seed: options.seed }), options.signal, (late) => void late.close());
      cleanups.push(() => target.close());
      const profile = target.profile;
      reportTarget = { name: profile.name, baseUrl: profile.baseUrl, embedded: target.embedded };
      if (corpus && !corpus.url.startsWith(profile.baseUrl)) {
        throw new HarnessError('CORPUS_INVALID', `the corpus was signed for ${corpus.url}, not for this target (${profile.baseUrl})`, { field: '--corpus' });
      }

      if (scenario === 'webhook-jwt' && profile.webhooks.jwt?.serveJwks) {
        // The listener fetches its keys from the harness: serve them for the whole run.
        const jwks = await startProfileJwksServers(profile);
        cleanups.push(() => jwks.close());
      }

      // The target's time, not local time, for every timestamp and JWT the run signs (target-clock.ts).
      const clock = await untilStopped(targetClockOffset(profile), options.signal);
      const clockDetails: Record<string, string> = profile.hooks ? { targetClock: describeClock(clock) } : {};
      const secrets = profileSecrets(profile);
      // A crossed threshold halts sending: a stop of the stop room's, with no StopReason (the report says which threshold).
      const halt = openStop();
      const watch = thresholdWatch(thresholds, abortPolicy, () => halt.stop());
      const newStats = (expected: (status: number) => boolean): LoadStats => {
        const made = new LoadStats(expected, undefined, new ErrorSamples((text) => redact(text, secrets)));
        metrics?.attach(made);
        return made;
      };
      const everySecond = (made: LoadStats) => perSecond({ scenario, stats: made, thresholds, onProgress: options.onProgress, stream, onThresholds: abortingThresholds.length > 0 ? watch.check : undefined });
      const drains = { drainTimeoutMs: timeoutMs + 1000, interruptDrainMs: Math.min(timeoutMs, stopMs('loadInterruptDrain')), haltDrainMs: Math.min(timeoutMs, stopMs('loadHaltDrain')) };
      const report = (made: LoadStats, result: DriveResult, details: Record<string, string | number>, expectedStatus: string, busy: number[]): LoadReport =>
        buildReport({
          config,
          target: reportTarget,
          details: { ...details, ...clockDetails, ...(target.embedded ? { reference: target.where } : {}) },
          expectedStatus,
          schedule,
          stats: made,
          result,
          thresholds,
          driver: driverLoad(busy, made, result.starved),
          ...(result.stopReason === 'interrupted' ? { interruption: interruption(options.signal, 'sending') } : {}),
          ...(result.stopReason === 'threshold-crossed' ? { thresholdAbort: watch.crossing() } : {}),
        });
      if (workers > 1) {
        const sent = await runWithWorkers({
          count: workers,
          scenario,
          // Only the source's settings: the options also hold callbacks and a signal, which no thread can be given.
          settings: { bodyBytes: options.bodyBytes, seed: options.seed, listener: options.listener, dupPool: options.dupPool, alg: options.alg, tokenMethod: options.tokenMethod, pageSize: options.pageSize },
          profile,
          corpus,
          spec,
          schedule,
          peakRate,
          capped,
          connections,
          maxInFlight,
          timeoutMs,
          ...drains,
          clockOffsetSeconds: clock.offsetSeconds,
          latencies: metrics !== undefined,
          signal: options.signal,
          enter,
          begin: (expectedLabel) => {
            const made = newStats((status) => String(status) === expectedLabel);
            return { stats: made, halt: halt.signal, onInterval: everySecond(made) };
          },
        });
        // The report is built before the target stops: nothing the shutdown does can be counted against it.
        return await finish(report(sent.stats, sent.result, sent.details, sent.expectedLabel, sent.busy));
      }

      // The stats are made once set-up is done; the transport asks them which answers' bodies to keep.
      let stats: LoadStats | undefined;
      const transport = createLoadTransport({
        keepBodyOf: (status) => stats?.wantsBody(status) ?? false,
        origin: profile.baseUrl,
        connections,
        timeoutMs,
        ca: profile.tls.ca,
        insecureSkipVerify: profile.tls.insecureSkipVerify,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      let cancelled = false;
      cleanups.push(() => (cancelled ? transport.destroy() : transport.close()));

      const source = makeSource(scenario, options, profile, transport, peakRate, corpus, clock.offsetSeconds);
      cleanups.push(() => source.close());
      // Set-up (priming, a first token) stops on Ctrl-C too, not only the measured sends.
      try {
        await enter('keys');
        await untilStopped(source.start(), options.signal);
      } catch (error) {
        if (error instanceof Stopped) cancelled = true;
        throw error;
      }

      await enter('load');
      stats = newStats((status) => source.expected(status));
      const busyBefore = performance.eventLoopUtilization();
      const result = await drive({
        schedule,
        source,
        transport,
        stats,
        maxInFlight,
        ...drains,
        // In flight at a signal: time to finish (bounded, interruptDrainMs), then counted as cancelled by the harness.
        signal: options.signal,
        capped,
        halt: halt.signal,
        onInterval: everySecond(stats),
      });
      const busy = performance.eventLoopUtilization(busyBefore).utilization;
      cancelled = stats.cancelled > 0;
      // The report is built before the target stops: nothing the shutdown does can be counted against it.
      return await finish(report(stats, result, source.details, source.expectedLabel, [busy]));
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      return await finish(
        buildReport({
          config,
          target: reportTarget,
          details: {},
          expectedStatus: '-',
          schedule,
          stats: new LoadStats(() => false),
          result: { startedAt, elapsedMs: Date.now() - startedAt, sendingMs: 0, stopReason: 'interrupted', starved: 0 },
          thresholds,
          interruption: interruption(options.signal, 'set-up', step),
        }),
      );
    }
  } finally {
    await cleanup();
  }
}

export { DEFAULT_ERROR_THRESHOLD, LOAD_DEFAULTS };
