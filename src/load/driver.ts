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

/**
 * Why sending ended: not a stop (stop/reason.ts `StopReason` is the one record of why a command stopped;
 * an interrupted run's is on the signal): the report's `stopReason` field, most often `completed`.
 */
export type SendingEnd = 'completed' | 'max-requests' | 'interrupted' | 'source-exhausted' | 'threshold-crossed';

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
  /** Aborting stops sending as a crossed threshold does (`--abort-on-fail`); in flight get `haltDrainMs`. */
  halt?: AbortSignal;
  haltDrainMs?: number;
  /** True when the schedule was cut by --max-requests (for the stop reason). */
  capped?: boolean;
  /** Each row as it closes (every second), and the last one (`final`, usually a sliver of a second). */
  onInterval?: (row: IntervalRow, state: IntervalState) => void;
  /**
   * When the schedule's first arrival is due, in this thread's performance.now(); default now. Workers of
   * one run (workers.ts) share one start, each sleeping until it, so their shares interleave as planned.
   */
  t0?: number;
}

export interface IntervalState {
  inFlight: number;
  elapsedMs: number;
  final: boolean;
}

export interface DriveResult {
  /** Epoch ms of the first intended send. */
  startedAt: number;
  /** From the first intended send to the end of the run (drain included). */
  elapsedMs: number;
  /** From the first intended send until sending stopped. */
  sendingMs: number;
  stopReason: SendingEnd;
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
  return new Promise<DriveResult>((resolve, reject) => new SendLoop(options, resolve, reject).start());
}

/**
 * One run of the send loop: its state and the steps that move it (send what is due, complete a response,
 * stop sending, finish). One instance per drive(); nothing here outlives the promise.
 */
class SendLoop {
  private readonly t0: number;
  private readonly startedAt: number;
  private nextAt: number | undefined;
  private inFlight = 0;
  private starved = 0;
  private sendingMs: number | undefined;
  private stopReason: SendingEnd = 'completed';
  private finished = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  /** A producer failure (e.g. signing): the run stops and the promise rejects with it. */
  private failure: unknown;
  private askedSoFar = 0;
  private ticker: NodeJS.Timeout;
  private readonly pump = (): void => this.step();
  private readonly onAbort = (): void => this.stopSending('interrupted', this.options.interruptDrainMs ?? 1000);
  // Deferred: the halt comes from inside a row's callback (roll), which must finish before the last row.
  private readonly onHalt = (): void => void setImmediate(() => this.stopSending('threshold-crossed', this.options.haltDrainMs ?? 1000));

  constructor(
    private readonly options: DriveOptions,
    private readonly resolve: (result: DriveResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    const now = performance.now();
    this.t0 = options.t0 ?? now;
    this.startedAt = Date.now() + (this.t0 - now);
    this.nextAt = options.schedule.next();
    // Rows close each second from the first arrival (workers' rows line up: merged row by row).
    this.ticker = setTimeout(() => {
      this.ticker = setInterval(() => this.roll(false), 1000);
      this.roll(false);
    }, this.t0 - now + 1000);
  }

  start(): void {
    if (this.options.signal?.aborted) {
      this.stopSending('interrupted', 0);
      return;
    }
    this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.options.halt?.addEventListener('abort', this.onHalt, { once: true });
    this.pump();
  }

  /** One row of the timeline (every second, and a last one at the end). */
  private roll(final: boolean): void {
    const { schedule, stats } = this.options;
    const elapsedMs = performance.now() - this.t0;
    // Arrivals the schedule asked for up to now (or up to where sending stopped), minus earlier rows'.
    const askedTotal = Math.min(schedule.total, Math.round(schedule.countBetween(0, Math.min(elapsedMs, this.sendingMs ?? elapsedMs))));
    const asked = Math.max(0, askedTotal - this.askedSoFar);
    this.askedSoFar += asked;
    const row = stats.roll(elapsedMs, asked);
    this.options.onInterval?.(row, { inFlight: this.inFlight, elapsedMs, final });
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.ticker);
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    if (this.drainTimer) clearTimeout(this.drainTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.options.halt?.removeEventListener('abort', this.onHalt);
    this.options.stats.cancelled += this.inFlight;
    this.roll(true);
    if (this.failure !== undefined) {
      this.reject(this.failure);
      return;
    }
    const now = performance.now();
    this.resolve({ startedAt: this.startedAt, elapsedMs: now - this.t0, sendingMs: this.sendingMs ?? now - this.t0, stopReason: this.stopReason, starved: this.starved });
  }

  private stopSending(reason: SendingEnd, drainMs: number): void {
    if (this.sendingMs !== undefined) return;
    this.sendingMs = performance.now() - this.t0;
    this.stopReason = reason;
    this.nextAt = undefined;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    if (this.inFlight === 0) this.finish();
    else this.drainTimer = setTimeout(() => this.finish(), drainMs);
  }

  private complete(intended: number, status: number, error: string | undefined, bytes: number, body: Buffer | undefined): void {
    if (this.finished) return;
    this.inFlight -= 1;
    const latency = performance.now() - intended;
    if (error === undefined) this.options.stats.onResponse(latency, status, body, bytes);
    // A transport failure after an interruption is the harness shutting down, not the target: cancelled.
    else if (error === 'CANCELLED' || this.stopReason === 'interrupted') this.options.stats.cancelled += 1;
    else this.options.stats.onFailure(latency, error);
    if (this.sendingMs !== undefined && this.inFlight === 0) this.finish();
  }

  private step(): void {
    try {
      this.sendDue();
    } catch (error) {
      this.failure = error;
      this.stopSending('interrupted', this.options.interruptDrainMs ?? 1000);
    }
  }

  private sendDue(): void {
    const { schedule, source, transport, stats, maxInFlight } = this.options;
    this.timer = undefined;
    this.immediate = undefined;
    if (this.sendingMs !== undefined) return;
    let burst = 0;
    while (this.nextAt !== undefined) {
      const intended = this.t0 + this.nextAt;
      const now = performance.now();
      if (intended > now + TICK_MS) break;
      if (this.inFlight >= maxInFlight) {
        stats.onDropped();
        this.nextAt = schedule.next();
        continue;
      }
      const req = source.take();
      if (req === undefined) {
        if (source.exhausted()) {
          this.stopSending('source-exhausted', this.options.drainTimeoutMs);
          return;
        }
        this.starved += 1;
        void source.ready().then(this.pump);
        return;
      }
      // Sent early (within the tick): latency counts from the actual send. Sent late: from the intended
      // time, so the delay stays in the figures.
      const from = intended > now ? now : intended;
      stats.onSent(now - from);
      this.inFlight += 1;
      transport.send(req, (status, error, bytes, body) => this.complete(from, status, error, bytes, body));
      this.nextAt = schedule.next();
      burst += 1;
      if (burst >= MAX_BURST) {
        this.immediate = setImmediate(this.pump);
        return;
      }
    }
    if (this.nextAt === undefined) {
      this.stopSending(this.options.capped ? 'max-requests' : 'completed', this.options.drainTimeoutMs);
      return;
    }
    // Sleep until the next arrival enters the tick window. No busy-wait: spinning on setImmediate for
    // sub-millisecond precision burns the CPU share the sends and the target need (measured: it cost more
    // capacity than the ≤ 1 ms of jitter it saves).
    const wait = this.t0 + this.nextAt - TICK_MS - performance.now();
    this.timer = setTimeout(this.pump, Math.max(0, Math.floor(wait)));
  }
}
