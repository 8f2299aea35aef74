/**
 * Why and when a run stops early: its deadline, a target that stopped answering (N requests in a row timed
 * out, could not connect or were rate-limited past the cap), or an interruption (SIGINT/SIGTERM). The first
 * reason wins; the engine then records every unfinished check as errored with it and still writes reports.
 *
 * The signal is the stop room's (stop/source.ts): the caller's signal (the CLI's run scope: signals,
 * --max-duration) joined with the run's own stops, giving up and its deadline; the guard only decides when.
 */
import type { RequestOutcome } from '../client/types.js';
import type { HarnessErrorCode } from '../errors.js';
import { formatDuration } from '../values.js';
import type { RunAbort } from './types.js';
import { isStopReason } from '../stop/reason.js';
import { openStop, type StopSource } from '../stop/source.js';

/** Failure codes that mean the target is not answering (or refuses to): each one extends the streak. */
const GIVE_UP_CODES: ReadonlySet<string> = new Set(['TIMEOUT', 'TARGET_UNREACHABLE', 'CONNECTION_RESET', 'DNS', 'TLS', 'RATE_LIMITED']);

export class RunGuard {
  private readonly stop: StopSource;
  private streak = 0;
  private heardRequests = false;

  /** `interrupt`: the caller's stop (the CLI's SIGINT/SIGTERM and --max-duration); its reason, when a StopReason, is kept. */
  constructor(
    private readonly maxConsecutiveFailures: number,
    interrupt?: AbortSignal,
  ) {
    this.stop = openStop(interrupt);
  }

  get signal(): AbortSignal {
    return this.stop.signal;
  }

  get reason(): RunAbort | undefined {
    if (!this.stop.signal.aborted) return undefined;
    // A caller's signal aborted without a record (a library caller's own controller) reads as an interruption.
    return isStopReason(this.stop.signal.reason) ? this.stop.reason() : { code: 'INTERRUPTED', message: 'the run was interrupted' };
  }

  abort(reason: RunAbort): void {
    this.stop.stop(reason);
  }

  /**
   * A finished check, for pools whose workers cannot reach the run channel (no request outcomes heard):
   * a check errored on a transport code counts as one failure, any decided check as an answer.
   */
  checkOutcome(state: string, harnessError: { code: string; message: string } | undefined): void {
    if (this.heardRequests) return;
    if (state === 'passed' || state === 'failed') this.count({ ok: true });
    else if (state === 'errored' && harnessError) this.count({ ok: false, code: harnessError.code, message: harnessError.message });
  }

  /** Counts one request's fate from any worker; a streak of failures long enough stops the run. */
  outcome(outcome: RequestOutcome): void {
    this.heardRequests = true;
    this.count(outcome);
  }

  private count(outcome: RequestOutcome): void {
    if (outcome.ok) {
      this.streak = 0;
      return;
    }
    if (!GIVE_UP_CODES.has(outcome.code)) return;
    this.streak += 1;
    if (this.maxConsecutiveFailures > 0 && this.streak >= this.maxConsecutiveFailures) {
      const code = outcome.code as HarnessErrorCode;
      const what = code === 'RATE_LIMITED' ? 'were refused by the target\'s rate limit (429)' : 'timed out or could not connect';
      this.abort({
        code,
        message: `gave up: ${this.streak} requests in a row ${what} (--max-consecutive-failures ${this.maxConsecutiveFailures}); the last: ${outcome.message}`,
      });
    }
  }

  /** Starts (or restarts) the deadline: `ms` from now; `deadlineMs` is the whole run's, for the message. */
  startDeadline(ms: number, deadlineMs = ms): void {
    this.stop.deadline(ms, () => ({ code: 'DEADLINE', message: `the run reached its deadline of ${formatDuration(deadlineMs)} (--max-duration)` }));
  }

  stopDeadline(): void {
    this.stop.close();
  }
}
