/**
 * The send loop. Each request has an intended send time from the ArrivalSchedule; the loop dispatches
 * every request that is due, and its latency is taken from the INTENDED time to the end of the response.
 * When the loop itself falls behind (a busy event loop, a starved signer) the delay lands in the latency
 * and in the send-lag histogram, never silently in a lower rate: an open model, no coordinated omission.
 *
 * A request due while `maxInFlight` are outstanding is not sent and counts as dropped (k6's
 * dropped_iterations).
 */
import type { LoadTransport } from './load-transport.js';
import type { ArrivalSchedule } from './schedule.js';
import type { RequestSource } from './source.js';
import type { IntervalRow, LoadStats } from './stats.js';

export type StopReason = 'completed' | 'max-requests' | 'interrupted' | 'source-exhausted';

export interface DriveOptions {
  schedule: ArrivalSchedule;
  source: RequestSource;
  transport: LoadTransport;
  stats: LoadStats;
  maxInFlight: number;
  /** Once sending is over, how long to wait for requests in flight before cancelling them. */
  drainTimeoutMs: number;
  /** Aborting stops sending at once; in-flight requests get up to `interruptDrainMs` to finish. */
  signal?: AbortSignal;
  interruptDrainMs?: number;
  /** True when the schedule was cut by --max-requests (for the stop reason). */
  capped?: boolean;
  onInterval?: (row: IntervalRow, state: { inFlight: number; elapsedMs: number }) => void;
}

export interface DriveResult {
  /** Epoch ms of the first intended send. */
  startedAt: number;
  /** From the first intended send to the end of the run (drain included). */
  elapsedMs: number;
  /** From the first intended send until sending stopped. */
  sendingMs: number;
  stopReason: StopReason;
  /** Times the sender found no prepared request and waited for the producer. */
  starved: number;
}

/** Sends per turn of the event loop before yielding, so responses keep being read during bursts. */
const MAX_BURST = 256;

/**
 * Timers have millisecond granularity, so each wake-up sends every arrival due within the next TICK_MS:
 * arrivals are quantised to 1 ms ticks (as in wrk2), each sent at most TICK_MS early and measured from its
 * actual send in that case.
 */
const TICK_MS = 1;

export function drive(options: DriveOptions): Promise<DriveResult> {
  const { schedule, source, transport, stats, maxInFlight } = options;
  return new Promise<DriveResult>((resolve, reject) => {
    const t0 = performance.now();
    const startedAt = Date.now();
    let nextAt = schedule.next();
    let inFlight = 0;
    let starved = 0;
    let sendingMs: number | undefined;
    let stopReason: StopReason = 'completed';
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    /** A producer failure (e.g. signing): the run stops and the promise rejects with it. */
    let failure: unknown;

    let askedSoFar = 0;
    const roll = (final: boolean): void => {
      const elapsedMs = performance.now() - t0;
      // Arrivals the schedule asked for up to now (or up to where sending stopped), minus earlier rows'.
      const askedTotal = Math.min(schedule.total, Math.round(schedule.countBetween(0, Math.min(elapsedMs, sendingMs ?? elapsedMs))));
      const asked = Math.max(0, askedTotal - askedSoFar);
      askedSoFar += asked;
      const row = stats.roll(elapsedMs, asked);
      // The last row is usually a sliver of a second: in the timeline, but not worth a progress line.
      if (!final || row.seconds >= 0.5) options.onInterval?.(row, { inFlight, elapsedMs });
    };
    const ticker = setInterval(() => roll(false), 1000);

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearInterval(ticker);
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      if (drainTimer) clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      stats.cancelled += inFlight;
      roll(true);
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      resolve({ startedAt, elapsedMs: performance.now() - t0, sendingMs: sendingMs ?? performance.now() - t0, stopReason, starved });
    };

    const stopSending = (reason: StopReason, drainMs: number): void => {
      if (sendingMs !== undefined) return;
      sendingMs = performance.now() - t0;
      stopReason = reason;
      nextAt = undefined;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      if (inFlight === 0) finish();
      else drainTimer = setTimeout(finish, drainMs);
    };

    const complete = (intended: number, status: number, error: string | undefined): void => {
      if (finished) return;
      inFlight -= 1;
      const latency = performance.now() - intended;
      if (error === undefined) stats.onResponse(latency, status);
      else if (error !== 'CANCELLED') stats.onFailure(latency, error);
      if (sendingMs !== undefined && inFlight === 0) finish();
    };

    const pump = (): void => {
      try {
        sendDue();
      } catch (error) {
        failure = error;
        stopSending('interrupted', options.interruptDrainMs ?? 1000);
      }
    };

    const sendDue = (): void => {
      timer = undefined;
      immediate = undefined;
      if (sendingMs !== undefined) return;
      let burst = 0;
      while (nextAt !== undefined) {
        const intended = t0 + nextAt;
        const now = performance.now();
        if (intended > now + TICK_MS) break;
        if (inFlight >= maxInFlight) {
          stats.onDropped();
          nextAt = schedule.next();
          continue;
        }
        const req = source.take();
        if (req === undefined) {
          if (source.exhausted()) {
            stopSending('source-exhausted', options.drainTimeoutMs);
            return;
          }
          starved += 1;
          void source.ready().then(pump);
          return;
        }
        // Sent early (within the tick): latency counts from the actual send. Sent late: from the intended
        // time, so the delay stays in the figures.
        const from = intended > now ? now : intended;
        stats.onSent(now - from);
        inFlight += 1;
        transport.send(req, (status, error) => complete(from, status, error));
        nextAt = schedule.next();
        burst += 1;
        if (burst >= MAX_BURST) {
          immediate = setImmediate(pump);
          return;
        }
      }
      if (nextAt === undefined) {
        stopSending(options.capped ? 'max-requests' : 'completed', options.drainTimeoutMs);
        return;
      }
      // Sleep until the next arrival enters the tick window. No busy-wait: spinning on setImmediate for
      // sub-millisecond precision burns the CPU share the sends and the target need (measured: it cost more
      // capacity than the ≤ 1 ms of jitter it saves).
      const wait = t0 + nextAt - TICK_MS - performance.now();
      timer = setTimeout(pump, Math.max(0, Math.floor(wait)));
    };

    const onAbort = (): void => stopSending('interrupted', options.interruptDrainMs ?? 1000);
    if (options.signal?.aborted) {
      stopSending('interrupted', 0);
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    pump();
  });
}
