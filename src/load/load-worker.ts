/**
 * One `load --workers` thread (workers.ts starts them): its own connections, its own request source and its
 * own share of the open-model schedule (every count-th arrival, schedule.ts), driven by the same send loop
 * as a single-thread run (driver.ts). It primes, says ready, waits for the run's one start time, then sends
 * each row it closes to the main thread (worker-share.ts), which merges them and judges the thresholds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { profileSecrets, redact } from '../client/index.js';
import { isHarnessError } from '../errors.js';
import { drive } from './driver.js';
import { ErrorSamples } from './error-samples.js';
import { createLoadTransport } from './load-transport.js';
import { ArrivalSchedule } from './schedule.js';
import { makeSource } from './scenario-source.js';
import { LoadStats } from './stats.js';
import { encodeHistogram, ShareTracker, type FromWorker, type ShippedHistogram, type ToWorker, type WorkerSetup } from './worker-share.js';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const post = (message: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

async function main(): Promise<void> {
  const { profile } = setup;
  const interrupt = new AbortController();
  const halt = new AbortController();
  let go: ((startAt: number) => void) | undefined;
  const started = new Promise<number>((resolve) => (go = resolve));
  port.on('message', (message: ToWorker) => {
    if (message.type === 'go') go?.(message.startAt);
    else if (message.type === 'interrupt') interrupt.abort();
    else halt.abort();
  });
  let stats: LoadStats | undefined;
  const transport = createLoadTransport({
    keepBodyOf: (status) => stats?.wantsBody(status) ?? false,
    origin: profile.baseUrl,
    connections: setup.connections,
    timeoutMs: setup.timeoutMs,
    ca: profile.tls.ca,
    insecureSkipVerify: profile.tls.insecureSkipVerify,
    signal: interrupt.signal,
  });
  const source = makeSource(setup.scenario, setup.settings, profile, transport, setup.peakRate, setup.corpus, setup.clockOffsetSeconds);
  try {
    await source.start();
    post({ type: 'ready', expectedLabel: source.expectedLabel, details: source.details });
    const startAt = await started;
    const secrets = profileSecrets(profile);
    stats = new LoadStats((status) => source.expected(status), undefined, new ErrorSamples((text) => redact(text, secrets)));
    const tracker = new ShareTracker(stats);
    let latency: ShippedHistogram | undefined;
    stats.rowTap = (interval) => {
      latency = interval.totalCount > 0 ? encodeHistogram(interval) : undefined;
    };
    let latencies: number[] = [];
    if (setup.latencies) stats.latencyTap = (ms) => void latencies.push(ms);
    let index = 0;
    const busyBefore = performance.eventLoopUtilization();
    const result = await drive({
      schedule: new ArrivalSchedule({ ...setup.schedule, segment: { index: setup.index, count: setup.count } }),
      source,
      transport,
      stats,
      maxInFlight: setup.maxInFlight,
      drainTimeoutMs: setup.drainTimeoutMs,
      interruptDrainMs: setup.interruptDrainMs,
      signal: interrupt.signal,
      capped: setup.capped,
      halt: halt.signal,
      haltDrainMs: setup.haltDrainMs,
      t0: startAt - performance.timeOrigin,
      onInterval: (_row, state) => {
        const shipped = setup.latencies ? Float64Array.from(latencies) : undefined;
        latencies = [];
        post(
          { type: 'row', index: index++, final: state.final, share: tracker.take(), ...(latency ? { latency } : {}), ...(shipped ? { latencies: shipped } : {}), inFlight: state.inFlight },
          shipped ? [shipped.buffer as ArrayBuffer] : [],
        );
        latency = undefined;
      },
    });
    const busy = performance.eventLoopUtilization(busyBefore).utilization;
    post({ type: 'done', result, sendLag: encodeHistogram(stats.sendLag), busy, samples: stats.samples?.list() ?? [] });
  } finally {
    await source.close().catch(() => {});
    if (interrupt.signal.aborted) transport.destroy();
    else await transport.close().catch(() => {});
  }
}

main().catch((error: unknown) => {
  const base = { message: error instanceof Error ? error.message : String(error) };
  post({ type: 'failed', error: isHarnessError(error) ? { ...base, code: error.code, ...(error.field ? { field: error.field } : {}), ...(error.hint ? { hint: error.hint } : {}) } : base });
});
